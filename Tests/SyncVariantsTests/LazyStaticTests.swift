import SyncVariants
import Testing

@Suite struct LazyStaticTests {
    @Test func everyReadReturnsTheSameInitializedValue() {
        let first = LazyStatic.value()
        #expect((1...1_000).contains(first))
        #expect(LazyStatic.value() == first)
    }
}
