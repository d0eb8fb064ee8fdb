import SwiftSyntax

/// How a completion handler reports its outcome, which decides the alternative's result type and
/// the code that settles it.
enum HandlerShape: Equatable {
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

    /// The type the alternative produces (`Void` when the handler passes no value).
    var valueType: String {
        switch self {
        case .optionalValueAndError(let value), .valueAndError(let value), .errorAndOptionalValue(let value),
             .value(let value), .result(let value, _):
            return value
        case .split(let value):
            return value ?? "Void"
        case .errorOnly, .nothing, .successFlag:
            return "Void"
        }
    }

    /// Whether the handler can report an error, so the alternative is a `Promise`/`throws`.
    var canFail: Bool {
        switch self {
        case .value, .nothing: return false
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
        }
    }

    /// Whether the async form needs `PMKError` (and so `import Vow`).
    var asyncNeedsVow: Bool {
        switch self {
        case .optionalValueAndError, .errorAndOptionalValue, .successFlag: return true
        default: return false
        }
    }
}

// MARK: - Reading types

/// Reads the closure types of parameters without type checking: syntax plus the typealiases
/// declared in the same file.
struct TypeReader {
    /// Typealiases of the file by name, for handlers like `completion: @escaping UserHandler`.
    var aliases: [String: TypeSyntax]

    /// The function type behind a parameter type and whether the closure escapes, or nil when the
    /// parameter is not a closure.
    func closureType(of type: TypeSyntax, depth: Int = 0) -> (function: FunctionTypeSyntax, escaping: Bool)? {
        guard depth < 8 else { return nil }
        if let function = type.as(FunctionTypeSyntax.self) {
            return (function, false)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            let escaping = attributed.attributes.contains { attribute in
                attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping"
            }
            guard let inner = closureType(of: attributed.baseType, depth: depth + 1) else { return nil }
            return (inner.function, inner.escaping || escaping)
        }
        if let optional = type.as(OptionalTypeSyntax.self) {
            guard let inner = closureType(of: optional.wrappedType, depth: depth + 1) else { return nil }
            return (inner.function, true)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.firstName == nil {
            return closureType(of: only.type, depth: depth + 1)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil,
           let aliased = aliases[identifier.name.text] {
            return closureType(of: aliased, depth: depth + 1)
        }
        return nil
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
            return .failure(SkipReason("the handler passes two values without an optional error; only one value and an error are supported"))
        default:
            return .failure(SkipReason("the handler passes \(types.count) values; only one value and an error are supported"))
        }
    }
}

/// Why a completion-handler function was left alone, in a sentence for the report.
struct SkipReason: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
