import SwiftSyntax

/// A test helper that waits for the answer of the closure it is given, as SDK suites write them:
///
/// ```swift
/// func waitFor<T>(_ description: String = #function, _ start: (@escaping (T) -> Void) -> Void) -> T? {
///     let done = expectation(description: description)
///     var value: T?
///     start { received in value = received; done.fulfill() }
///     wait(for: [done], timeout: timeout)
///     return value
/// }
/// ```
///
/// Its body calls one of its closure parameters with a closure that fulfils an expectation, and
/// the next statement waits for expectations. A test's `waitFor { done in api.load { done($0) } }`
/// then returns only once the callback has answered `done`: a pyramid in that closure ending by
/// answering it may become a `Task`, which runs while the helper waits, as a test's own
/// expectation flow may (``CallSiteRewrite``). Read in files importing XCTest only.
struct WaitingHelper: Sendable, Equatable {
    var baseName: String
    /// Its parameters, as calls bind to them (``CallBinding``).
    var parameters: [ParameterShape]
    /// The position of the closure parameter whose answer the helper waits for.
    var closureIndex: Int

    static func helpers(in tree: SourceFileSyntax) -> [WaitingHelper] {
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.helpers
    }

    /// The argument of `call` that this helper waits on, when the call binds its arguments to
    /// the helper's parameters as Swift binds them (``CallBinding``). Nil otherwise.
    func waitedClosure(in call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        switch CallBinding.bind(call, to: parameters)?[closureIndex] {
        case .argument(let position)?:
            return call.arguments[call.arguments.index(call.arguments.startIndex, offsetBy: position)].expression.as(ClosureExprSyntax.self)
        case .trailing(0)?:
            return call.trailingClosure
        case .trailing(let position)?:
            return call.additionalTrailingClosures[call.additionalTrailingClosures.index(call.additionalTrailingClosures.startIndex, offsetBy: position - 1)].closure
        case nil:
            return nil
        }
    }

    private final class Finder: SyntaxVisitor {
        var helpers: [WaitingHelper] = []

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            guard let body = node.body else { return .skipChildren }
            let parameters = Array(node.signature.parameterClause.parameters)
            let closures = FunctionBodyFinder.closureParameterNames(node.signature.parameterClause.parameters)
            let statements = Array(body.statements)
            for (index, item) in statements.enumerated() where index + 1 < statements.count {
                guard let call = PyramidReader.callStatement(item),
                      let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, closures.contains(name),
                      call.trailingClosure != nil || call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }),
                      CallSiteRewrite.fulfilsExpectation(item), CallSiteRewrite.waitsForExpectations(statements[index + 1]),
                      let position = parameters.firstIndex(where: { ($0.secondName ?? $0.firstName).text == name }) else { continue }
                helpers.append(WaitingHelper(baseName: node.name.text.filter { $0 != "`" },
                                             parameters: parameters.map(ParameterShape.init), closureIndex: position))
                break
            }
            return .skipChildren
        }
    }
}
