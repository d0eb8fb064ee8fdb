#if compiler(>=6.2)
/// What `when(fulfilled:)` and `race(_:)` require of an `AsyncSequence` they read in their own
/// task: Swift 6.2's `SendableMetatype`, which every type meets unless its conformances are
/// isolated to an actor (such a sequence cannot be read from another task). Before Swift 6.2 it
/// asks nothing.
public typealias VowSendableMetatype = SendableMetatype
#else
/// What `when(fulfilled:)` and `race(_:)` require of an `AsyncSequence` they read in their own
/// task: nothing before Swift 6.2 (`SendableMetatype` from Swift 6.2 on).
public typealias VowSendableMetatype = Any
#endif
