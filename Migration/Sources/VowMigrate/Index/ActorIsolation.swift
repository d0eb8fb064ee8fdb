import SwiftSyntax

/// Where an async alternative runs, and why it matters.
///
/// A plain `async` function that no actor owns runs on the shared pool: awaiting it leaves the
/// caller's actor. For an alternative that would mean the original completion-handler function
/// is called off the caller's actor (a view controller's call made on a pool thread), and two
/// tasks started in one turn of the main queue make their calls in either order.
/// `nonisolated(nonsending)` (Swift 6.2) keeps the alternative on its caller's actor, so the
/// original is called where the caller's code runs, in the order the caller's tasks run.
///
/// It may only be written where the function is not isolated: a method of an actor, of a type or
/// extension marked with a global actor, of a subclass of a framework class (UIKit's are
/// `@MainActor`), or of a type conforming to a protocol the tree does not show (which may carry a
/// global actor) keeps today's alternative, which shares the original's isolation. So does every
/// function of a file whose default isolation is `MainActor` (SwiftPM's `.defaultIsolation`,
/// Xcode's `SWIFT_DEFAULT_ACTOR_ISOLATION`, or `--default-isolation MainActor`).
enum ActorContext: Sendable, Equatable {
    /// A global actor on the function or on its extension, or an `isolated` parameter. (A type's
    /// own isolation, an actor's or a global actor's on its declaration, is the index's:
    /// ``MigrationIndex/isProvablyNonisolated(_:)`` for ``member(of:)``.)
    case isolated
    /// `nonisolated` written on the function.
    case explicitlyNonisolated
    /// A function at file scope.
    case fileScope
    /// A member of this type (as the scope names it), or of an extension of it.
    case member(of: String)

    /// Whether an attribute list names a global actor (`@MainActor`, an app's `@DatabaseActor`).
    static func hasGlobalActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { element in
            element.as(AttributeSyntax.self)?.attributeName.trimmedDescription.hasSuffix("Actor") == true
        }
    }

    /// Whether a class is `@objcMembers`: its members, and its extensions', are exposed to
    /// Objective-C, which this tool cannot check on Linux, so their alternatives keep the form
    /// they always had (the index counts such a class with the isolated ones).
    static func exposesMembersToObjC(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "objcMembers" }
    }

    /// What the function's own declaration says, or nil when its context decides.
    static func declared(by function: FunctionDeclSyntax) -> ActorContext? {
        if hasGlobalActor(function.attributes) { return .isolated }
        let parameters = function.signature.parameterClause.parameters
        if parameters.contains(where: { $0.type.as(AttributedTypeSyntax.self)?.specifiers.contains { $0.trimmedDescription == "isolated" } == true }) {
            return .isolated
        }
        if function.modifiers.contains(where: { $0.name.text == "nonisolated" && $0.detail == nil }) { return .explicitlyNonisolated }
        return nil
    }
}

extension MigrationIndex {
    /// Types and protocols outside the tree that are known not to be isolated to an actor, so a
    /// type inheriting only these (and the tree's own nonisolated types) is not isolated either.
    static let knownNonisolatedTypes: Set<String> = [
        // The standard library's protocols and types a model or service inherits.
        "Sendable", "Equatable", "Hashable", "Comparable", "Codable", "Encodable", "Decodable", "Error",
        "CustomStringConvertible", "CustomDebugStringConvertible", "Identifiable", "CaseIterable", "RawRepresentable",
        "OptionSet", "Sequence", "Collection", "IteratorProtocol", "AnyObject", "CodingKey",
        "ExpressibleByStringLiteral", "ExpressibleByIntegerLiteral", "ExpressibleByArrayLiteral",
        "ExpressibleByDictionaryLiteral", "ExpressibleByNilLiteral", "ExpressibleByBooleanLiteral",
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "Character",
        // Foundation's.
        "NSObject", "NSObjectProtocol", "NSCoding", "NSSecureCoding", "NSCopying", "LocalizedError", "CustomNSError",
        "Operation", "URLSession", "URLSessionDelegate", "URLSessionTaskDelegate", "URLSessionDataDelegate",
        "URLSessionDownloadDelegate", "FileManager", "NotificationCenter", "UserDefaults", "Bundle", "ObservableObject",
    ]

    /// Whether a member of `type` is provably not isolated to an actor: the tree declares the
    /// type, neither it nor anything it inherits from carries a global actor or is an actor, and
    /// everything it inherits from is declared in the tree or known not to be isolated. Framework
    /// and stdlib types outside the tree count when they are in ``knownNonisolatedTypes``.
    func isProvablyNonisolated(_ type: String) -> Bool {
        var visited: Set<String> = []
        return isProvablyNonisolated(Self.baseTypeName(type), visited: &visited)
    }

    private func isProvablyNonisolated(_ type: String, visited: inout Set<String>) -> Bool {
        let simple = Self.lastComponent(type)
        guard visited.insert(type).inserted else { return true }
        if isolatedTypes.contains(type) || isolatedTypes.contains(simple) { return false }
        guard typeNames.contains(type) || typeNames.contains(simple) else {
            return Self.knownNonisolatedTypes.contains(simple)
        }
        let parents = inheritance[type] ?? inheritance[simple] ?? []
        return parents.allSatisfy { isProvablyNonisolated(Self.baseTypeName($0), visited: &visited) }
    }
}
