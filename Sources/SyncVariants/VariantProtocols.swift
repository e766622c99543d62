// The protocols the variants here conform to are the ones a package conforms to when it brings its own
// (`VariantProtocols`); whoever imports the built-in variants gets them too.
@_exported import VariantProtocols
