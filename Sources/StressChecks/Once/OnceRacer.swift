import BenchCore
import Foundation
import SyncVariants
import VariantCatalog

/// How the stress check races each shape of once variant: a race over fresh tokens of a fresh instance, or nil
/// for a shape that has none to race on.
package struct OnceRacer: OnceVariantVisitor {
    package typealias Output = (@Sendable (_ threads: Int, _ rounds: Int) -> OnceRaceReport)?

    package init() {}

    package func table<Table: OnceTable>(_: Table.Type) -> Output {
        { OnceRaceCheck.race(Table.self, threads: $0, rounds: $1) }
    }

    /// Races the runtime's `swift_once` on fresh predicates; `lazyStaticInitializesOnceUnderARace` also races
    /// the first access of a few real statics.
    package func staticLet(_ type: LazyStatic.Type) -> Output { table(type) }

    package func callSite(_: AutoTokenOnce.Type) -> Output {
        { OnceRaceCheck.run(AutoTokenCallSites(), tokens: Array(0..<$1), threads: $0) }
    }

    /// Makes no once call: nothing to check.
    package func barrierOnly() -> Output { nil }
}

extension OnceVariant {
    /// The catalog's variants that the stress check races.
    package static let raced = allCases.filter { $0.accept(OnceRacer()) != nil }
}

/// `AutoTokenOnce` through its call-site API: token n is the call site at line n, so the token string is built
/// on every call, as in the seed.
package final class AutoTokenCallSites: OnceTracker, Sendable {
    private let tracker = AutoTokenOnce()

    package func once(token line: Int, block: () -> Void) {
        tracker.once(line: line, block: block)
    }
}
