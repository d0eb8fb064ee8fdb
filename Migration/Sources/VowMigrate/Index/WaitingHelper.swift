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
struct WaitingHelper: Sendable, Hashable {
    var baseName: String
    /// Each parameter's argument label (nil for `_`) and whether it has a default value.
    var labels: [String?]
    var defaults: [Bool]
    /// Whether each parameter takes a closure: a trailing closure skips defaulted ones that do
    /// not (the forward scan of SE-0286).
    var takesClosure: [Bool]
    /// The position of the closure parameter whose answer the helper waits for.
    var closureIndex: Int

    static func helpers(in tree: SourceFileSyntax) -> [WaitingHelper] {
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.helpers
    }

    /// The argument of `call` that this helper waits on, when the call binds its arguments to
    /// the helper's parameters: the trailing closure for a last closure parameter, or the
    /// argument written with that parameter's label. Nil otherwise.
    func waitedClosure(in call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        guard call.additionalTrailingClosures.isEmpty else { return nil }
        var arguments = call.arguments.map { (label: $0.label?.text, expression: $0.expression, trailing: false) }
        if let trailing = call.trailingClosure { arguments.append((label: nil, expression: ExprSyntax(trailing), trailing: true)) }
        // Bind in order: each argument to the next parameter with its label (a trailing closure:
        // the next taking a closure), skipping defaulted ones.
        var parameter = 0
        var bound: ExprSyntax?
        for argument in arguments {
            while parameter < labels.count, argument.trailing ? !takesClosure[parameter] : labels[parameter] != argument.label {
                guard defaults[parameter] else { return nil }
                parameter += 1
            }
            guard parameter < labels.count else { return nil }
            if parameter == closureIndex { bound = argument.expression }
            parameter += 1
        }
        guard labels[parameter...].indices.allSatisfy({ defaults[$0] }) else { return nil }
        return bound?.as(ClosureExprSyntax.self)
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
                helpers.append(WaitingHelper(
                    baseName: node.name.text.filter { $0 != "`" },
                    labels: parameters.map { $0.firstName.tokenKind == .wildcard ? nil : $0.firstName.text },
                    defaults: parameters.map { $0.defaultValue != nil },
                    takesClosure: parameters.map { closures.contains(($0.secondName ?? $0.firstName).text) },
                    closureIndex: position))
                break
            }
            return .skipChildren
        }
    }
}
