import SwiftSyntax

/// The declarations an async alternative leans on in a file that does not import Vow, so the
/// `--to async` output needs only the standard library: each is added once per file that needs
/// it, at file scope and `fileprivate` (two files of one module each have their own), and never
/// again when the file already declares it (a second run changes nothing).
///
/// A file that imports Vow keeps Vow's spellings (`PMKError.invalidCallingConvention`,
/// `CancellationTokenSource`) instead.
enum SwiftOnlySupport: String, CaseIterable, Sendable {
    /// The error thrown for an answer with neither a value nor an error.
    case neitherValueNorError = "NeitherValueNorError"
    /// The holder that cancels a returned handle when the awaiting Task is cancelled.
    case pendingCancellation = "PendingCancellation"

    /// The type's name. The call-site stage recognises the error by it (see `recognises(_:)`).
    var typeName: String { rawValue }

    // MARK: - The error for neither a value nor an error

    /// What an alternative throws when `function`'s handler answered neither a value nor an error.
    static func neitherValueNorError(from function: String) -> String {
        "\(Self.neitherValueNorError.typeName)(function: \"\(function)\")"
    }

    /// A condition true when `error` (an `any Error` expression) is this error, from any file:
    /// each file declares its own `fileprivate` type, so converted code in another file cannot
    /// name the type, but every copy has the same name.
    static func recognises(_ error: String) -> String {
        "String(describing: type(of: \(error))) == \"\(Self.neitherValueNorError.typeName)\""
    }

    // MARK: - Declarations

    /// The declaration, at nesting level 0.
    func declaration() -> CodeLines {
        var lines = CodeLines()
        switch self {
        case .neitherValueNorError:
            lines.add("/// Thrown by an async alternative added by vow-migrate when the original's completion handler", 0)
            lines.add("/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),", 0)
            lines.add("/// which its types allow but an async function cannot return. Recognised by its name.", 0)
            lines.add("fileprivate struct \(typeName): Error {", 0)
            lines.add("/// The completion-handler function that answered so, as Swift names it.", 1)
            lines.add("let function: String", 1)
            lines.add("}", 0)
        case .pendingCancellation:
            lines.add("/// Cancels the handle an async alternative added by vow-migrate waits on, once the awaiting Task", 0)
            lines.add("/// is cancelled: at once when the handle is stored, or as soon as it is if the Task was cancelled", 0)
            lines.add("/// before, and at most once. An actor rather than a lock, so the file needs neither Foundation nor", 0)
            lines.add("/// Vow; a cancellation that lands after the handler answered cancels a finished handle, which", 0)
            lines.add("/// changes nothing (the continuation has resumed).", 0)
            lines.add("fileprivate actor \(typeName) {", 0)
            lines.add("private var storedCancel: (@Sendable () -> Void)?", 1)
            lines.add("private var isCancelled = false", 1)
            lines.add("", 1)
            lines.add("func store(_ cancelHandle: @escaping @Sendable () -> Void) {", 1)
            lines.add("if isCancelled { cancelHandle() } else { storedCancel = cancelHandle }", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("func cancel() {", 1)
            lines.add("isCancelled = true", 2)
            lines.add("storedCancel?()", 2)
            lines.add("storedCancel = nil", 2)
            lines.add("}", 1)
            lines.add("}", 0)
        }
        return lines
    }

    /// The declarations of `needed`, always in the same order, a blank line between them.
    static func declarations(of needed: Set<Self>) -> CodeLines {
        var lines = CodeLines()
        for (position, support) in allCases.filter(needed.contains).enumerated() {
            if position > 0 { lines.add("", 0) }
            lines.add(support.declaration(), indentedBy: 0)
        }
        return lines
    }

    /// Which of them a file (or a piece of one) declares at file scope, from an earlier run.
    static func declared(in tree: SourceFileSyntax) -> Set<Self> {
        var found = Set<Self>()
        for statement in tree.statements {
            let name: String?
            if let structDecl = statement.item.as(StructDeclSyntax.self) {
                name = structDecl.name.text
            } else if let actorDecl = statement.item.as(ActorDeclSyntax.self) {
                name = actorDecl.name.text
            } else if let classDecl = statement.item.as(ClassDeclSyntax.self) {
                name = classDecl.name.text
            } else {
                name = nil
            }
            if let name, let support = Self(rawValue: name) { found.insert(support) }
        }
        return found
    }
}
