import SwiftSyntax

/// A function that reports its outcome through a completion handler, read from its declaration
/// alone, with everything the emitters need to write its alternative.
struct CompletionFunction {
    struct Parameter {
        /// The argument label, or nil for `_`.
        var label: String?
        /// The name the body uses.
        var name: String
        /// The parameter as written, for copying into the alternative.
        var text: String
        /// `@autoclosure`: forwarded as `name()`, which the callee wraps again.
        var isAutoclosure = false
        /// The parameter as argument matching sees it.
        var shape = ParameterShape(label: nil, hasDefault: false, takesClosure: false)
        /// The default value as written, if any.
        var defaultText: String?
        /// The type as written, for telling overloads apart.
        var typeText = ""
    }

    /// A returned handle the alternative can cancel (`let task = ...; task.cancel()`).
    struct CancellableHandle {
        var type: String
        var isOptional: Bool
        /// Whether the handle is known to be `Sendable`; if not, the generated code captures it
        /// with `nonisolated(unsafe)`, since cancelling from another thread is what it is for.
        var isSendable: Bool
        /// Its type is declared in no file of the run (its `cancel()` known from the tree's
        /// conformance of it to a protocol declaring one): whether it is `Sendable` is not known,
        /// so the generated code captures a closure cancelling it instead, which needs
        /// `nonisolated(unsafe)` either way.
        var sendabilityUnknown = false
    }

    var decl: FunctionDeclSyntax
    var name: String
    var parameters: [Parameter]
    /// The completion handler (the success handler for split pairs).
    var handlerIndex: Int
    /// The failure handler of a split pair.
    var failureIndex: Int?
    var shape: HandlerShape
    var isThrowing: Bool
    var cancellableHandle: CancellableHandle?
    /// What a `@discardableResult` function returns that is no cancellable handle
    /// (`CancellationKey?`): the alternative drops it, as callers may.
    var discardedReturn: String?
    /// The handler (or pair) is optional or defaulted (`completion: ((Error?) -> Void)? = nil`).
    var handlerIsOptional = false
    /// The handler (or one of the pair) has a default value, so existing calls may omit it.
    var handlerHasDefault = false
    /// The types of the handler's parameters as written, for spelling them out where Swift
    /// could not infer a generic parameter from the generated closure.
    var handlerParameterTypes: [String] = []

    /// The handler's position, and the failure handler's for a split pair.
    var handlerIndices: [Int] {
        [handlerIndex] + (failureIndex.map { [$0] } ?? [])
    }

    /// The default values of the handler (and failure handler), by parameter position, as written.
    var handlerDefaults: [Int: String] {
        Dictionary(uniqueKeysWithValues: handlerIndices.compactMap { index in parameters[index].defaultText.map { (index, $0) } })
    }

    /// `fetchUser(id:completion:)`.
    var swiftName: String {
        Self.swiftName(name, labels: parameters.map(\.label))
    }

    /// The parameters the alternative keeps: all but the handlers.
    var keptParameters: [Parameter] {
        parameters.enumerated().filter { $0.offset != handlerIndex && $0.offset != failureIndex }.map(\.element)
    }

    /// `name(label:other:)`, without the backticks of an escaped keyword, as `renamed:` wants it.
    static func swiftName(_ name: String, labels: [String?]) -> String {
        name.filter { $0 != "`" } + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }

    /// The argument labels a declaration's parameters take, `nil` for `_`.
    static func labels(of parameters: FunctionParameterListSyntax?) -> [String?] {
        (parameters ?? []).map { $0.firstName.text == "_" ? nil : $0.firstName.text }
    }
}

// MARK: - Reading a declaration

/// Decides whether a function declaration takes a completion handler, and reads it.
struct CompletionFunctionReader {
    var typeReader: TypeReader
    /// What the whole tree knows: typealiases, cancellable and `Sendable` types.
    var index: MigrationIndex

    init(index: MigrationIndex, scope: String) {
        self.index = index
        self.typeReader = TypeReader(index: index, scope: scope)
    }

    private struct Closure {
        var index: Int
        var name: String
        /// Label and name together, for guessing what the closure is for.
        var words: String
        var function: FunctionTypeSyntax
        var isOptional: Bool
        var hasDefault: Bool
    }

    enum Outcome {
        /// Not a completion-handler function: say nothing.
        case notCandidate
        /// Takes an escaping closure returning nothing, but the rule says it is not a completion
        /// handler (listed with `--verbose`, with the reason).
        case rejected(String, SkipReason)
        case candidate(CompletionFunction)
        /// A completion-handler function that cannot be converted safely.
        case skipped(String, SkipReason)
    }

    /// The first four name a completion wherever they appear in a name; the others only as
    /// words of it.
    private static let completionWords = ["completion", "complete", "callback", "handler",
                                          "reply", "done", "finish", "result", "response", "then"]
    /// Closures that run *with* something (a database, a lock) rather than after it: reporting an
    /// error does not make them completions (`asyncRead(_ value: (Result<Database, Error>) -> Void)`).
    private static let scopedBodyNames: Set<String> = ["body", "value", "block", "work", "operation",
                                                       "transaction", "updates", "action", "closure"]
    private static let repeatedCallWords = ["progress", "change", "update", "event", "observ", "listen",
                                            "each", "stream", "receive", "notify", "consum"]
    private static let knownCancellableTypes: Set<String> = [
        "URLSessionTask", "URLSessionDataTask", "URLSessionDownloadTask", "URLSessionUploadTask",
        "URLSessionStreamTask", "URLSessionWebSocketTask", "AnyCancellable", "DispatchWorkItem",
        "Operation", "BlockOperation", "Progress",
    ]

    /// Return types that are plainly values, never handles: no `--context` hint for them.
    private static let standardValueTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Bool", "String", "Character", "Data", "Date", "URL", "UUID", "URLRequest", "Any", "AnyObject", "Never",
    ]

    private static let knownSendableHandles: Set<String> = [
        "URLSessionTask", "URLSessionDataTask", "URLSessionDownloadTask", "URLSessionUploadTask",
        "URLSessionStreamTask", "URLSessionWebSocketTask", "Task",
    ]

    /// `onConnectionDidOpen(_:)`, `observeChanges(_:)`, `subscribe(_:)`: the closure is stored and
    /// called for each event, not once at the end.
    static func registersForEvents(_ functionName: String) -> Bool {
        let name = functionName.filter { $0 != "`" }
        if name.hasPrefix("on"), let third = name.dropFirst(2).first, third.isUppercase { return true }
        let lowered = name.lowercased()
        return ["observe", "subscribe", "listen", "addhandler", "addobserver", "addlistener"].contains(where: lowered.hasSubstring)
    }

    static func isCompletionName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if repeatedCallWords.contains(where: lowered.hasSubstring) { return false }
        if completionWords.prefix(4).contains(where: lowered.hasSubstring) { return true }
        // Short words count as whole words of the camel-cased name: `then` names `thenDo`,
        // not `authentication`; `done`, `onDone`, not `abandoned`.
        let words = Self.words(of: name)
        return completionWords.dropFirst(4).contains { word in words.contains { $0.hasPrefix(word) } }
    }

    /// `completionHandler` gives `completion`, `handler`; `onDidFinish` gives `on`, `did`,
    /// `finish`; lowercased; `URLResponse` gives `urlresponse`.
    static func words(of name: String) -> [String] {
        // Names are ASCII nearly always: bytes, without the `Character` properties' lookups
        // (run for every parameter of every function, they were a few percent of a large run).
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(of: name) }
        var words: [String] = []
        var current = ""
        var previousIsUpper = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousIsUpper = false
                continue
            }
            if character.isUppercase && !previousIsUpper && !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousIsUpper = character.isUppercase
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// ``words(of:)`` of an ASCII name, the same words.
    private static func asciiWords(of name: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previousIsUpper = false
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for byte in name.utf8 {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard isUpper || isLower || isDigit else {
                flush()
                previousIsUpper = false
                continue
            }
            if isUpper && !previousIsUpper { flush() }
            current.append(isUpper ? byte + 32 : byte)
            previousIsUpper = isUpper
        }
        flush()
        return words
    }

    /// Words naming nothing but a closure run at the end: unlike `result`, `response` or `then`
    /// (a substring of `authentication`), they do not name values.
    private static let handlerOnlyWords = ["completion", "callback", "handler", "reply", "block", "closure"]

    static func isHandlerOnlyName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if repeatedCallWords.contains(where: lowered.hasSubstring) { return false }
        return handlerOnlyWords.contains(where: lowered.hasSubstring)
    }

    private static func isFailureName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasSubstring("fail") || lowered.hasSubstring("error")
    }

    func read(_ decl: FunctionDeclSyntax, isProtocolRequirement: Bool, hasBody: Bool? = nil) -> Outcome {
        let signature = decl.signature
        if signature.effectSpecifiers?.asyncSpecifier != nil { return .notCandidate }
        let hasBody = hasBody ?? (decl.body != nil)

        var parameters: [CompletionFunction.Parameter] = []
        var closures: [Closure] = []
        /// Closures whose own parameters include a closure (delegate-style callbacks).
        var delegateStyle: [String] = []
        for (index, parameter) in signature.parameterClause.parameters.enumerated() {
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let name = parameter.secondName?.text ?? parameter.firstName.text
            let isAutoclosure = parameter.type.as(AttributedTypeSyntax.self)?.attributes.contains {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "autoclosure"
            } == true
            parameters.append(.init(label: label, name: name, text: parameter.detached.with(\.trailingComma, nil).trimmedDescription,
                                    isAutoclosure: isAutoclosure, shape: ParameterShape(parameter),
                                    defaultText: parameter.defaultValue?.value.trimmedDescription,
                                    typeText: parameter.type.trimmedDescription))
            if let closure = typeReader.closureType(of: parameter.type), closure.escaping, !isAutoclosure,
               TypeReader.returnsVoid(closure.function) {
                // `authentication: ((Challenge, @escaping (Disposition) -> Void) -> Void)?`: a
                // callback handed a way to answer is called for each request, not once at the end.
                if closure.function.parameters.contains(where: { typeReader.closureType(of: $0.type) != nil }) {
                    delegateStyle.append(name)
                    continue
                }
                closures.append(Closure(index: index, name: name, words: "\(label ?? "") \(name)", function: closure.function,
                                        isOptional: closure.optional || parameter.defaultValue != nil,
                                        hasDefault: parameter.defaultValue != nil))
            }
        }
        let swiftName = CompletionFunction.swiftName(decl.name.text, labels: parameters.map(\.label))
        if closures.isEmpty, !delegateStyle.isEmpty {
            return .rejected(swiftName, SkipReason("its closure \(delegateStyle.map { "`\($0)`" }.joined(separator: ", ")) receives a closure of its own "
                                                   + "(a callback handed a way to answer, as a delegate is), not a completion handler"))
        }
        guard !closures.isEmpty else {
            // `completion: @escaping Handler` with `Handler` declared nowhere the run can see.
            if let unresolved = signature.parameterClause.parameters.first(where: { parameter in
                var type = parameter.type
                let words = { (type: TypeSyntax) in "\(parameter.firstName.text) \(parameter.secondName?.text ?? "") \(type.trimmedDescription)" }
                if let attributed = type.as(AttributedTypeSyntax.self) {
                    guard attributed.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping" }) else {
                        return false
                    }
                    type = attributed.baseType
                } else if let wrapped = TypeReader.optionalWrapped(type) {
                    // Without `@escaping` nothing says it is a closure: `_ response: HTTPURLResponse?`
                    // is a value. Only a name that can mean nothing but a handler counts.
                    guard wrapped.is(IdentifierTypeSyntax.self) || wrapped.is(MemberTypeSyntax.self),
                          Self.isHandlerOnlyName(words(wrapped)) else { return false }
                    type = wrapped
                } else {
                    return false
                }
                guard type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) else { return false }
                return Self.isCompletionName(words(type))
            }) {
                var type = unresolved.type
                if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
                // Declared, but no completion handler (`typealias RouteHandler = (String) -> (status:
                // Int, body: Data?)`, a closure answering a value): listed under --verbose as such.
                let name = type.trimmedDescription
                if !name.contains("."), let alias = index.typeAlias(named: name, from: typeReader.scope) {
                    return .rejected(swiftName, SkipReason("its closure type `\(name)` (`\(alias.aliasedType.trimmingSpaces())`) is not one of a "
                                                           + "completion handler's (a closure answering a value, or no closure)"))
                }
                return .skipped(swiftName, SkipReason("its handler type `\(type.trimmedDescription)` is not declared in any file of the run; name the file declaring it (`--context PATH`) or spell the closure type out"))
            }
            return .notCandidate
        }
        if let external = frameworkRequirement(decl) {
            return .rejected(swiftName, SkipReason("it implements a requirement of \(external), declared outside the tree: the framework calls it, "
                                                   + "and an alternative beside it is not the app's API"))
        }
        if Self.registersForEvents(decl.name.text) {
            return .rejected(swiftName, SkipReason("its name says it registers for events, so its closure is called for each one"))
        }

        // Pick the handler: a split success/failure pair, else one completion-like closure.
        var handler: Closure?
        var failure: Closure?
        var shape: HandlerShape?
        let failureClosures = closures.filter { closure in
            closure.function.parameters.count == 1 && TypeReader.isErrorType(closure.function.parameters.first!.type)
                && TypeReader.optionalWrapped(closure.function.parameters.first!.type) == nil
        }
        if failureClosures.count == 1, let failureClosure = failureClosures.first {
            let successCandidates = closures.filter { closure in
                closure.index != failureClosure.index && closure.function.parameters.count <= 1
                    && !closure.function.parameters.contains { TypeReader.isErrorType($0.type) }
                    && !Self.repeatedCallWords.contains(where: closure.words.lowercased().hasSubstring)
            }
            if successCandidates.count == 1, let success = successCandidates.first {
                handler = success
                failure = failureClosure
                shape = .split(value: success.function.parameters.first?.type.trimmedDescription)
            } else if successCandidates.count > 1 {
                return .skipped(swiftName, SkipReason("`\(failureClosure.name)` reports failure but more than one closure could be its success handler"))
            }
        }
        if handler == nil {
            let named = closures.filter { Self.isCompletionName($0.words) && !Self.isFailureName($0.words) }
            let failing = closures.filter { closure in
                if Self.repeatedCallWords.contains(where: closure.words.lowercased().hasSubstring) { return false }
                guard case .success(let shape) = TypeReader.shape(of: closure.function), shape.canFail else { return false }
                // A body handed a resource it runs with (GRDB's `asyncRead(_ value: (Result<Database,
                // Error>) -> Void)`) is no completion; a `block` answering `(value, error)` after
                // the work is (`fetch(block: (Int?, Error?) -> Void)`, as Objective-C era APIs name it).
                if Self.scopedBodyNames.contains(closure.name.lowercased()) {
                    switch shape {
                    case .optionalValueAndError, .valueAndError, .errorAndOptionalValue, .errorOnly: return true
                    default: return false
                    }
                }
                return true
            }
            if named.count == 1 {
                handler = named[0]
            } else if named.count > 1 {
                return .skipped(swiftName, SkipReason("several closures look like completion handlers (\(named.map { "`\($0.name)`" }.joined(separator: ", ")))"))
            } else if failing.count == 1 {
                handler = failing[0]
            } else if failing.count > 1 {
                return .skipped(swiftName, SkipReason("several closures report errors and none is named like a completion (\(failing.map { "`\($0.name)`" }.joined(separator: ", ")))"))
            } else {
                return .rejected(swiftName, SkipReason(Self.rejection(of: closures)))
            }
        }
        guard let handler else { return .notCandidate }
        if shape == nil {
            switch TypeReader.shape(of: handler.function) {
            case .success(let read): shape = read
            case .failure(let reason): return .skipped(swiftName, reason)
            }
        }
        guard let shape else { return .notCandidate }

        // What the alternative cannot forward or capture.
        for (index, parameter) in signature.parameterClause.parameters.enumerated()
        where index != handler.index && index != failure?.index {
            if parameter.ellipsis != nil {
                return .skipped(swiftName, SkipReason("the variadic parameter `\(parameters[index].name)` cannot be forwarded"))
            }
            if parameter.type.as(AttributedTypeSyntax.self)?.specifiers.contains(where: { $0.trimmedDescription == "inout" }) == true {
                return .skipped(swiftName, SkipReason("the inout parameter `\(parameters[index].name)` cannot be captured by the handler"))
            }
            if parameters[index].name == "_" {
                return .skipped(swiftName, SkipReason("parameter \(index + 1) has no name to forward"))
            }
        }
        let modifiers = decl.modifiers.map(\.name.text)
        if modifiers.contains("mutating") {
            return .skipped(swiftName, SkipReason("a mutating method cannot be called from an escaping closure"))
        }
        if modifiers.contains("override") {
            return .skipped(swiftName, SkipReason("it overrides a superclass method; add the alternative beside the base declaration"))
        }
        if modifiers.contains("optional") {
            return .skipped(swiftName, SkipReason("an optional protocol requirement cannot be called unconditionally"))
        }
        if signature.effectSpecifiers?.throwsClause?.throwsSpecifier.text == "rethrows" {
            return .skipped(swiftName, SkipReason("a rethrows function cannot be wrapped without its closure argument"))
        }
        if !hasBody && !isProtocolRequirement {
            return .notCandidate
        }

        var cancellable: CompletionFunction.CancellableHandle?
        var discardedReturn: String?
        if let returnType = signature.returnClause?.type {
            let text = returnType.trimmedDescription
            if text != "Void" && text != "()" {
                let wrapped = TypeReader.optionalWrapped(returnType)
                let handleType = (wrapped ?? returnType).trimmedDescription
                let handle = wrapped ?? returnType
                let base = handleType.split(separator: "<").first.map(String.init) ?? handleType
                // Moya's `-> CancellableToken`, declared in a file the run did not read.
                let unknown = (handle.is(IdentifierTypeSyntax.self) || handle.is(MemberTypeSyntax.self))
                    && !index.declaresType(base) && !index.declaresAlias(base) && !Self.standardValueTypes.contains(base)
                // `@discardableResult ... -> CancellationKey?` (a type the run knows has no
                // `cancel()`): its author lets callers drop the value, and so may the alternative.
                let discardable = !unknown && decl.attributes.contains {
                    $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "discardableResult"
                }
                let cancellableHandle = isCancellable(handleType)
                guard cancellableHandle || discardable else {
                    var reason = "it returns `\(text)` besides calling its handler; only a cancellable handle (a type with `cancel()`) maps onto a cancellation token"
                    if unknown {
                        reason += "; `\(base)` is declared in no file of the run: if it has `cancel()`, name its file with `--context PATH`"
                    }
                    return .skipped(swiftName, SkipReason(reason))
                }
                if cancellableHandle {
                    let sendable = index.isSendable(handleType) || Self.knownSendableHandles.contains(base)
                    cancellable = .init(type: handleType, isOptional: wrapped != nil, isSendable: sendable,
                                        sendabilityUnknown: !sendable && unknown)
                } else {
                    discardedReturn = text
                }
            }
        }
        return .candidate(CompletionFunction(
            decl: decl,
            name: decl.name.text,
            parameters: parameters,
            handlerIndex: handler.index,
            failureIndex: failure?.index,
            shape: shape,
            isThrowing: signature.effectSpecifiers?.throwsClause != nil,
            cancellableHandle: cancellable,
            discardedReturn: discardedReturn,
            handlerIsOptional: handler.isOptional || failure?.isOptional == true,
            handlerHasDefault: handler.hasDefault || failure?.hasDefault == true,
            handlerParameterTypes: handler.function.parameters.map { $0.type.trimmedDescription }
        ))
    }

    /// Protocols the tree does not declare that a standard-library protocol is not: the ones a
    /// framework (UIKit, WebKit, an HTTP library) calls through.
    private static let standardProtocols: Set<String> = [
        "Sendable", "Equatable", "Hashable", "Codable", "Decodable", "Encodable", "Error", "Identifiable", "Comparable",
        "CaseIterable", "CustomStringConvertible", "CustomDebugStringConvertible", "AnyObject", "RawRepresentable",
        "NSObject", "NSObjectProtocol", "ObservableObject", "Actor",
    ]

    /// The framework protocols (`WKUIDelegate`) whose requirement this method implements, as far
    /// as syntax tells: its type conforms to a protocol the tree does not declare, and the method
    /// is named as delegate methods are (`webView(_ webView: WKWebView, ...)`: the first,
    /// unlabelled parameter's type ends with the method's name), or its type's conformance is
    /// named as a framework's callback protocols are (`Authenticator`, `RequestInterceptor`, SiriKit's
    /// `...IntentHandling`, WidgetKit's `TimelineProvider`), the
    /// method is not public and no call of it appears in the tree.
    private func frameworkRequirement(_ decl: FunctionDeclSyntax) -> String? {
        guard !typeReader.scope.isEmpty else { return nil }
        let external = index.inheritedNames(of: typeReader.scope).filter { name in
            !index.declaresType(name) && !Self.standardProtocols.contains(name)
        }.sorted()
        guard !external.isEmpty else { return nil }
        let named = external.map { "`\($0)`" }.joined(separator: " or ")
        let parameters = decl.signature.parameterClause.parameters
        let name = decl.name.text.filter { $0 != "`" }.lowercased()
        if parameters.count >= 2, let first = parameters.first, first.firstName.text == "_" {
            var type = first.type
            if let wrapped = TypeReader.optionalWrapped(type) { type = wrapped }
            let typeName = MigrationIndex.lastComponent(type.trimmedDescription).lowercased()
            if typeName.hasSuffix(name) { return named }
        }
        // SiriKit's `...IntentHandling` and WidgetKit's `TimelineProvider` are called by the
        // system, as delegates are.
        let callbackProtocols = external.filter { protocolName in
            ["Delegate", "DataSource", "Authenticator", "Interceptor", "Adapter", "Retrier", "Handling", "Provider"]
                .contains(where: protocolName.hasSuffix)
        }
        // Public API is called from outside the tree, so no call inside proves nothing: only a
        // method the app keeps to itself counts as the framework's.
        let isPublic = IndexCollector.isPublic(decl.modifiers, inPublicExtension: false)
        let shapes = decl.signature.parameterClause.parameters.map(ParameterShape.init)
        if !callbackProtocols.isEmpty, !isPublic, !index.hasCalls(named: decl.name.text.filter { $0 != "`" }, fitting: shapes) {
            return callbackProtocols.map { "`\($0)`" }.joined(separator: " or ")
        }
        return nil
    }

    /// Why none of the escaping closures counts as a completion handler, for `--verbose`.
    private static func rejection(of closures: [Closure]) -> String {
        let names = closures.map { "`\($0.name)`" }.joined(separator: ", ")
        if closures.contains(where: { closure in repeatedCallWords.contains(where: closure.words.lowercased().hasSubstring) }) {
            return "its closure \(names) is named like a repeated event, not a completion"
        }
        if closures.contains(where: { scopedBodyNames.contains($0.name.lowercased()) }) {
            return "its closure \(names) runs with something rather than after it (a body, not a completion)"
        }
        return "its closure \(names) is not named like a completion and reports no error"
    }

    private func isCancellable(_ type: String, depth: Int = 0) -> Bool {
        if index.isCancellable(type) || Self.knownCancellableTypes.contains(type) { return true }
        let base = type.split(separator: "<").first.map(String.init) ?? type
        if base == "Task" { return true }
        // A handle named by a typealias, found as Swift finds it (in the type, what it inherits,
        // or around it): `typealias Handle = URLSessionDataTask` in an extension of a superclass.
        if depth < 8, !base.contains("."), let alias = typeReader.index.typeAlias(named: base, from: typeReader.scope),
           alias.genericParameters.isEmpty {
            var aliased = alias.aliasedType.trimmingSpaces()
            while aliased.hasSuffix("?") || aliased.hasSuffix("!") { aliased.removeLast() }
            return isCancellable(aliased, depth: depth + 1)
        }
        return false
    }
}
