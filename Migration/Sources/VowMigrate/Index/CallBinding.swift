import SwiftSyntax

/// A parameter as argument matching sees it: its label, whether a call may leave it out, and
/// whether a trailing closure can fill it.
public struct ParameterShape: Sendable, Equatable {
    public var label: String?
    public var hasDefault: Bool
    public var takesClosure: Bool
    public var isVariadic: Bool
    /// The type as written, for telling overloads apart.
    public var typeText: String
    /// How many parameters a closure passed here takes, where the type spells it out.
    public var closureArity: Int?

    public init(label: String?, hasDefault: Bool, takesClosure: Bool, isVariadic: Bool = false, typeText: String = "",
                closureArity: Int? = nil) {
        self.label = label
        self.hasDefault = hasDefault
        self.takesClosure = takesClosure
        self.isVariadic = isVariadic
        self.typeText = typeText
        self.closureArity = closureArity
    }

    init(_ parameter: FunctionParameterSyntax) {
        let name = (parameter.secondName ?? parameter.firstName).text
        self.init(label: parameter.firstName.text == "_" ? nil : parameter.firstName.text,
                  hasDefault: parameter.defaultValue != nil,
                  takesClosure: IndexCollector.mayBeClosure(parameter, name: name),
                  isVariadic: parameter.ellipsis != nil, typeText: parameter.type.trimmedDescription,
                  closureArity: Self.arity(of: parameter.type))
    }

    /// `(A, B) -> Void`, `@escaping (A) -> Void`, `((A) -> Void)?`: the number of parameters.
    static func arity(of type: TypeSyntax) -> Int? {
        var type = type
        while true {
            if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType; continue }
            if let wrapped = TypeReader.optionalWrapped(type) { type = wrapped; continue }
            if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
                type = only.type
                continue
            }
            break
        }
        return type.as(FunctionTypeSyntax.self)?.parameters.count
    }

    /// A call may leave it out.
    var isOmittable: Bool { hasDefault || isVariadic }
}

/// Matches a call's arguments to a parameter list the way Swift does by syntax: labelled
/// arguments in order, defaulted parameters skipped, and the first trailing closure by the forward
/// scan of SE-0286 (a defaulted closure parameter is passed over when a later closure parameter
/// needs an argument). Types are not checked: a call that binds here may still not typecheck, so
/// this over-approximates which declarations a call can reach, which is the safe direction for
/// "no existing call changes callee".
enum CallBinding {
    /// What fills a parameter.
    enum Slot: Equatable {
        /// The argument at this position inside the parentheses.
        case argument(Int)
        /// The trailing closure at this position (0 is the unlabelled first one).
        case trailing(Int)
    }

    /// For each parameter, what fills it (nil: its default), or nil when the call cannot bind.
    static func bind(_ call: ExistingCall, to parameters: [ParameterShape]) -> [Slot?]? {
        bind(labels: call.labels, trailingClosures: call.trailingClosures, trailingClosureArities: call.trailingClosureArities, to: parameters)
    }

    /// The same for a call as the syntax tree has it.
    static func bind(_ call: FunctionCallExprSyntax, to parameters: [ParameterShape]) -> [Slot?]? {
        let closures = (call.trailingClosure.map { [$0] } ?? []) + call.additionalTrailingClosures.map(\.closure)
        return bind(labels: call.arguments.map { $0.label?.text },
                    trailingClosures: (call.trailingClosure == nil ? [] : [nil]) + call.additionalTrailingClosures.map { $0.label.text },
                    trailingClosureArities: closures.map(ExistingCallCollector.arity), to: parameters)
    }

    private static func bind(labels: [String?], trailingClosures: [String?], trailingClosureArities: [Int?],
                             to parameters: [ParameterShape]) -> [Slot?]? {
        var slots = [Slot?](repeating: nil, count: parameters.count)
        var position = 0

        func bindLabelled(_ label: String?, as slot: Slot) -> Bool {
            while position < parameters.count && parameters[position].label != label {
                guard parameters[position].isOmittable else { return false }
                position += 1
            }
            guard position < parameters.count else { return false }
            slots[position] = slot
            position += 1
            return true
        }

        for (index, label) in labels.enumerated() {
            // Unlabelled arguments after a variadic one belong to it.
            if label == nil, position > 0, parameters[position - 1].isVariadic, slots[position - 1] != nil { continue }
            guard bindLabelled(label, as: .argument(index)) else { return nil }
        }
        for (index, label) in trailingClosures.enumerated() {
            if index == 0 && label == nil {
                var bound = false
                while position < parameters.count {
                    let parameter = parameters[position]
                    if parameter.takesClosure {
                        let laterNeedsIt = parameters[(position + 1)...].contains { !$0.isOmittable && $0.takesClosure }
                        if parameter.isOmittable && laterNeedsIt {
                            position += 1
                            continue
                        }
                        // A closure taking another number of parameters does not typecheck here.
                        if let arity = parameter.closureArity, let written = trailingClosureArities.first ?? nil, arity != written {
                            return nil
                        }
                        slots[position] = .trailing(index)
                        position += 1
                        bound = true
                        break
                    }
                    guard parameter.isOmittable else { return nil }
                    position += 1
                }
                guard bound else { return nil }
            } else {
                guard bindLabelled(label, as: .trailing(index)) else { return nil }
            }
        }
        for rest in position..<parameters.count where !parameters[rest].isOmittable {
            return nil
        }
        return slots
    }

    /// A parameter's default written so that a call can pass it explicitly and keep its meaning:
    /// `nil`, or a closure literal naming nothing (`{ _ in }`). Other defaults (`.none`,
    /// `Defaults.handler`) might mean something else where the call is, so they are not copied.
    static func spellableDefault(_ text: String) -> String? {
        let trimmed = text.trimmingSpaces()
        if trimmed == "nil" { return trimmed }
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}") else { return nil }
        let words = identifiers(in: trimmed)
        return words.allSatisfy { $0 == "_" || $0 == "in" } ? trimmed : nil
    }
}
