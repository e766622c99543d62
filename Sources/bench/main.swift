import DispatchBench

// The `bench` command: DispatchBench's command line with the built-in variants alone. A package that brings its own
// patterns has an executable just like this one, passing them in (docs/bring-your-own.md).
DispatchBench.main()
