import SwiftSyntax

/// How a completion handler reports its outcome, which decides the alternative's result type and
/// the code that settles it. Types are kept as written in the handler.
public enum HandlerShape: Sendable, Equatable {
    /// `(T?, Error?)`: value or error; both nil is a broken calling convention.
    case optionalValueAndError(value: String)
    /// `(T, Error?)`: a value always, an error sometimes.
    case valueAndError(value: String)
    /// `(Error?, T?)`: the Node-style order.
    case errorAndOptionalValue(value: String)
    /// `(Error?)`: success carries no value.
    case errorOnly
    /// `(T)`: cannot fail.
    case value(String)
    /// `()`: cannot fail, no value.
    case nothing
    /// `(Result<T, E>)`; `failure` is nil when `E` is plain `Error`.
    case result(value: String, failure: String?)
    /// `(Bool, Error?)`: a success flag; `false` without an error is a broken calling convention.
    case successFlag
    /// Separate `success: (T) -> Void` and `failure: (Error) -> Void` handlers; `value` is nil for
    /// `success: () -> Void`.
    case split(value: String?)
    /// Several values, with or without an optional error (`(Data?, URLResponse?, Error?)`): the
    /// alternative produces a tuple labelled by the handler's parameter names
    /// (`(data: Data, response: URLResponse)`). With an error, optional values are unwrapped and
    /// must all be there when the error is nil; without one, they are passed on as they are.
    /// `errorIndex` is the error's position among the handler's parameters, nil without one.
    case tuple(elements: [TupleElement], errorIndex: Int?)

    /// One value of a multi-value handler.
    public struct TupleElement: Sendable, Equatable {
        /// The tuple label and the generated closure's parameter name.
        public var label: String
        /// The element type of the result (unwrapped when the handler can fail).
        public var type: String
        /// Whether the handler passes it as an optional that must be unwrapped on success.
        public var unwraps: Bool
    }

    /// The labels of a multi-value handler's tuple, in order; empty for the other shapes.
    public var tupleLabels: [String] {
        if case .tuple(let elements, _) = self { return elements.map(\.label) }
        return []
    }

    /// The type the alternative produces (`Void` when the handler passes no value).
    public var valueType: String {
        switch self {
        case .optionalValueAndError(let value), .valueAndError(let value), .errorAndOptionalValue(let value),
             .value(let value), .result(let value, _):
            return value
        case .split(let value):
            return value ?? "Void"
        case .errorOnly, .nothing, .successFlag:
            return "Void"
        case .tuple(let elements, _):
            return "(" + elements.map { "\($0.label): \($0.type)" }.joined(separator: ", ") + ")"
        }
    }

    /// Whether the handler can report an error, so the alternative is a `Promise`/`throws`.
    public var canFail: Bool {
        switch self {
        case .value, .nothing: return false
        case .tuple(_, let errorIndex): return errorIndex != nil
        default: return true
        }
    }

    /// The closure parameters the generated handler declares, in the handler's order.
    var closureParameters: [String] {
        switch self {
        case .optionalValueAndError, .valueAndError: return ["value", "error"]
        case .errorAndOptionalValue: return ["error", "value"]
        case .errorOnly: return ["error"]
        case .value: return ["value"]
        case .nothing: return []
        case .result: return ["result"]
        case .successFlag: return ["success", "error"]
        case .split(let value): return value == nil ? [] : ["value"]
        case .tuple(let elements, let errorIndex):
            var names = elements.map(\.label)
            if let errorIndex { names.insert("error", at: errorIndex) }
            return names
        }
    }

    /// Whether the async form throws for an answer with neither a value nor an error
    /// (`PMKError.invalidCallingConvention`, or `NeitherValueNorError` without Vow).
    var asyncRejectsMissingAnswer: Bool {
        switch self {
        case .optionalValueAndError, .errorAndOptionalValue, .successFlag: return true
        case .tuple(let elements, let errorIndex): return errorIndex != nil && elements.contains(where: \.unwraps)
        default: return false
        }
    }
}

// MARK: - Reading types

/// Reads the closure types of parameters without type checking: syntax plus the typealiases the
/// index knows, from the scope of the function being read.
struct TypeReader {
    var index: MigrationIndex
    /// The enclosing type of the function being read, as written, "" at file scope.
    var scope: String

    /// The function type behind a parameter type, whether the closure escapes and whether it is
    /// optional, or nil when the parameter is not a closure.
    func closureType(of type: TypeSyntax, depth: Int = 0) -> (function: FunctionTypeSyntax, escaping: Bool, optional: Bool)? {
        guard depth < 8 else { return nil }
        if let function = type.as(FunctionTypeSyntax.self) {
            return (function, false, false)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            let escaping = attributed.attributes.contains { attribute in
                attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping"
            }
            guard let inner = closureType(of: attributed.baseType, depth: depth + 1) else { return nil }
            return (inner.function, inner.escaping || escaping, inner.optional)
        }
        if let wrapped = Self.optionalWrapped(type) {
            guard let inner = closureType(of: wrapped, depth: depth + 1) else { return nil }
            return (inner.function, true, true)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.firstName == nil {
            return closureType(of: only.type, depth: depth + 1)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self),
           let aliased = index.resolvedAlias(named: identifier.name.text, qualifier: nil,
                                             genericArguments: Self.genericArguments(identifier.genericArgumentClause), from: scope) {
            return closureType(of: aliased, depth: depth + 1)
        }
        if let member = type.as(MemberTypeSyntax.self),
           let aliased = index.resolvedAlias(named: member.name.text, qualifier: member.baseType.trimmedDescription,
                                             genericArguments: Self.genericArguments(member.genericArgumentClause), from: scope) {
            return closureType(of: aliased, depth: depth + 1)
        }
        return nil
    }

    private static func genericArguments(_ clause: GenericArgumentClauseSyntax?) -> [String] {
        clause?.arguments.map { $0.argument.trimmedDescription } ?? []
    }

    /// Whether a function type returns nothing, as completion handlers do.
    static func returnsVoid(_ function: FunctionTypeSyntax) -> Bool {
        let text = function.returnClause.type.trimmedDescription
        return text == "Void" || text == "()" || text == "Swift.Void"
    }

    /// The wrapped type of `T?`, `T!` or `Optional<T>`.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
           let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
           case .type(let wrapped) = arguments.first!.argument {
            return wrapped
        }
        return nil
    }

    /// `Error`, `any Error`, `NSError`, `NetworkError`... by name: without type information a
    /// type whose name ends in `Error` is taken for an error.
    static func isErrorType(_ type: TypeSyntax) -> Bool {
        var text = type.trimmedDescription
        while text.hasPrefix("(") && text.hasSuffix(")") { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("any ") { text = String(text.dropFirst(4)) }
        return text == "Error" || text == "Swift.Error" || text.hasSuffix("Error")
    }

    static func isPlainError(_ text: String) -> Bool {
        var text = text
        if text.hasPrefix("any ") { text = String(text.dropFirst(4)) }
        return text == "Error" || text == "Swift.Error"
    }

    /// The `T` and `E` of `Result<T, E>` / `Swift.Result<T, E>`.
    static func resultArguments(_ type: TypeSyntax) -> (value: String, failure: String)? {
        let arguments: GenericArgumentListSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Result" {
            arguments = identifier.genericArgumentClause?.arguments
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Result",
                  member.baseType.trimmedDescription == "Swift" {
            arguments = member.genericArgumentClause?.arguments
        } else {
            return nil
        }
        guard let arguments, arguments.count == 2 else { return nil }
        let texts = arguments.map { $0.argument.trimmedDescription }
        return (texts[0], texts[1])
    }

    /// The shape of a handler's parameter list, or a reason it has none we support.
    static func shape(of function: FunctionTypeSyntax) -> Result<HandlerShape, SkipReason> {
        let elements = Array(function.parameters)
        let types = elements.map(\.type)
        switch types.count {
        case 0:
            return .success(.nothing)
        case 1:
            let only = types[0]
            if let result = resultArguments(only) {
                return .success(.result(value: result.value, failure: isPlainError(result.failure) ? nil : result.failure))
            }
            if let wrapped = optionalWrapped(only), isErrorType(wrapped) {
                return .success(.errorOnly)
            }
            if isErrorType(only) {
                return .failure(SkipReason("the handler receives only a non-optional error; pass it a success handler too or make the error optional"))
            }
            return .success(.value(only.trimmedDescription))
        case 2:
            let first = types[0], second = types[1]
            if let wrappedError = optionalWrapped(second), isErrorType(wrappedError) {
                if let wrappedValue = optionalWrapped(first) {
                    return .success(.optionalValueAndError(value: wrappedValue.trimmedDescription))
                }
                let name = (elements[0].secondName ?? elements[0].firstName)?.text.lowercased()
                let isFlagName = name == nil || name == "_" || ["success", "succeeded", "ok", "didsucceed", "finished", "completed"].contains(name!)
                if first.trimmedDescription == "Bool" && isFlagName {
                    return .success(.successFlag)
                }
                return .success(.valueAndError(value: first.trimmedDescription))
            }
            if let wrappedError = optionalWrapped(first), isErrorType(wrappedError), let wrappedValue = optionalWrapped(second) {
                return .success(.errorAndOptionalValue(value: wrappedValue.trimmedDescription))
            }
            return tupleShape(elements)
        default:
            return tupleShape(elements)
        }
    }

    /// Several values and at most one optional error, first or last.
    private static func tupleShape(_ elements: [TupleTypeElementSyntax]) -> Result<HandlerShape, SkipReason> {
        let errorPositions = elements.indices.filter { index in
            isErrorType(optionalWrapped(elements[index].type) ?? elements[index].type)
        }
        if errorPositions.count > 1 {
            return .failure(SkipReason("the handler passes \(errorPositions.count) errors; only one is supported"))
        }
        var errorIndex = errorPositions.first
        if let index = errorIndex {
            guard optionalWrapped(elements[index].type) != nil else {
                return .failure(SkipReason("the handler passes a non-optional error beside values; it cannot say when it succeeded"))
            }
            // `(NSObject?, Error?, HTTPURLResponse)`: an error between values comes with values
            // that keep their meaning on failure (the response of a failed request) and answers
            // that are neither (`(nil, nil, response)` for a 404): the alternative passes every
            // value on as it is, the error too, and throws nothing (`async -> (json: NSObject?,
            // error: Error?, response: HTTPURLResponse)`), so no answer changes its meaning.
            if index != 0 && index != elements.count - 1 { errorIndex = nil }
        }
        var labels: [String] = []
        var values: [HandlerShape.TupleElement] = []
        for (position, element) in elements.enumerated() where position != errorIndex {
            var label = element.secondName?.text ?? element.firstName?.text ?? "_"
            let passedError = errorIndex == nil && errorPositions.first == position
            if label == "_" || (label == "error" && !passedError) { label = passedError ? "error" : Self.label(forType: element.type) }
            var unique = label
            var counter = 2
            while labels.contains(unique) || (unique == "error" && !passedError) {
                unique = "\(label)\(counter)"
                counter += 1
            }
            labels.append(unique)
            let wrapped = errorIndex == nil ? nil : optionalWrapped(element.type)
            values.append(.init(label: unique, type: (wrapped ?? element.type).trimmedDescription, unwraps: wrapped != nil))
        }
        return .success(.tuple(elements: values, errorIndex: errorIndex))
    }

    /// `response` for `URLResponse?`, `image` for `UIImage`, `data` for `Data`: the type's last
    /// word, lowercased; `value` for anything else.
    static func label(forType type: TypeSyntax) -> String {
        let base = MigrationIndex.baseTypeName((optionalWrapped(type) ?? type).trimmedDescription)
        let name = MigrationIndex.lastComponent(base)
        guard let first = name.first, first.isLetter, name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return "value" }
        var start = name.endIndex
        var index = name.endIndex
        while index > name.startIndex {
            index = name.index(before: index)
            if name[index].isUppercase {
                start = index
                // `URLResponse`: the word starts at the last capital followed by a lowercase letter.
                let next = name.index(after: index)
                if next < name.endIndex && name[next].isLowercase { break }
            }
        }
        if start == name.endIndex { start = name.startIndex }
        let word = name[start...].lowercased()
        let keywords: Set<String> = ["protocol", "class", "struct", "enum", "default", "case", "in", "is", "as", "self",
                                     "func", "let", "var", "return", "where", "extension", "operator", "type", "any", "some"]
        return keywords.contains(word) || word.isEmpty ? "value" : word
    }
}

/// Why a completion-handler function was left alone, in a sentence for the report.
struct SkipReason: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
