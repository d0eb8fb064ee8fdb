/// An inner callback that the chain cannot hold as one of its steps (its own `[weak self]`, or a
/// `guard let self` in the callback around it before an early exit) but that converts where it
/// stands: the last handler ends with its own chain, as a second run would write it, so the
/// callbacks are flat either way and a second run changes nothing.
extension PromiseChainWriter {
    func innerChainLines(_ inner: Pyramid) throws(Refusal) -> [(text: String, level: Int)] {
        // Its local error type, if it needs one, is declared in the handler: a name of its own.
        let name = failureTypeName.hasSuffix("Failure") ? String(failureTypeName.dropLast("Failure".count)) + "InnerFailure" : failureTypeName + "Inner"
        let writer = PromiseChainWriter(pyramid: inner, bytes: bytes, failureTypeName: name, inGenericContext: inGenericContext)
        return try writer.write().lines.map { ($0.text, $0.level) }
    }
}
