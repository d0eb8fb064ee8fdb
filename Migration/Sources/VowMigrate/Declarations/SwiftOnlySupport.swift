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
    /// The bridge that resumes a continuation at most once, for a stored handler trusted with
    /// `--trust-stored-handlers` (it needs Foundation's `NSLock`; the file imports Foundation).
    case resumeOnce = "ResumeOnce"
    /// The bridge that resumes an async alternative of a function returning a cancellable handle
    /// once, with the original's answer or with `CancellationError` when the awaiting Task is
    /// cancelled, whichever comes first (it needs Foundation's `NSLock`; the file imports Foundation).
    case cancellableAnswer = "CancellableAnswer"

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

    /// The declaration, at nesting level 0. `errorType`: `Swift.Error` where the tree declares a
    /// type named `Error` of its own.
    func declaration(errorType: String = "Error") -> CodeLines {
        var lines = CodeLines()
        switch self {
        case .neitherValueNorError:
            lines.add("/// Thrown by an async alternative added by vow-migrate when the original's completion handler", 0)
            lines.add("/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),", 0)
            lines.add("/// which its types allow but an async function cannot return. Recognised by its name.", 0)
            lines.add("fileprivate struct \(typeName): \(errorType) {", 0)
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
        case .resumeOnce:
            lines.add("/// Resumes the continuation of an async alternative added by vow-migrate at most once: the", 0)
            lines.add("/// original stores its handler (--trust-stored-handlers), so it may be called again; a later", 0)
            lines.add("/// answer is dropped and printed rather than resuming twice, which traps. Never called, the", 0)
            lines.add("/// await never returns, as the original's callback never runs.", 0)
            lines.add("fileprivate final class \(typeName)<Value, Failure: \(errorType)>: @unchecked Sendable {", 0)
            lines.add("// @unchecked: `continuation` is read and cleared only under `lock`.", 1)
            lines.add("private let lock = NSLock()", 1)
            lines.add("private var continuation: CheckedContinuation<Value, Failure>?", 1)
            lines.add("private let function: String", 1)
            lines.add("", 1)
            lines.add("init(_ continuation: CheckedContinuation<Value, Failure>, function: String) {", 1)
            lines.add("self.continuation = continuation", 2)
            lines.add("self.function = function", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("fileprivate func take() -> CheckedContinuation<Value, Failure>? {", 1)
            lines.add("lock.lock()", 2)
            lines.add("let taken = continuation", 2)
            lines.add("continuation = nil", 2)
            lines.add("lock.unlock()", 2)
            lines.add("if taken == nil { print(\"vow-migrate: `\\(function)` answered again; the later answer is dropped\") }", 2)
            lines.add("return taken", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("func resume(returning value: sending Value) { take()?.resume(returning: value) }", 1)
            lines.add("func resume(throwing error: Failure) { take()?.resume(throwing: error) }", 1)
            lines.add("func resume(with result: sending Swift.Result<Value, Failure>) { take()?.resume(with: result) }", 1)
            lines.add("}", 0)
            lines.add("", 0)
            lines.add("extension \(typeName) where Value == Void {", 0)
            lines.add("func resume() { take()?.resume() }", 1)
            lines.add("}", 0)
        case .cancellableAnswer:
            lines.add("/// Resumes the continuation of an async alternative added by vow-migrate once: with the", 0)
            lines.add("/// original's answer, or with `CancellationError` as soon as the awaiting Task is cancelled,", 0)
            lines.add("/// whichever comes first, cancelling the handle the original returned; the other is dropped.", 0)
            lines.add("/// A callee that never answers a cancelled request (`if error.code == NSURLErrorCancelled", 0)
            lines.add("/// { return }`) cannot leave the await waiting.", 0)
            lines.add("fileprivate final class \(typeName)<Value>: @unchecked Sendable {", 0)
            lines.add("// @unchecked: every stored property is read and written only under `lock`.", 1)
            lines.add("private let lock = NSLock()", 1)
            lines.add("private var continuation: CheckedContinuation<Value, any \(errorType)>?", 1)
            lines.add("private var cancelHandle: (@Sendable () -> Void)?", 1)
            lines.add("private var isCancelled = false", 1)
            lines.add("", 1)
            lines.add("/// Keeps the continuation; false, the await throwing `CancellationError`, when the Task", 1)
            lines.add("/// was cancelled before the original is called (it is not called then).", 1)
            lines.add("func start(_ continuation: CheckedContinuation<Value, any \(errorType)>) -> Bool {", 1)
            lines.add("lock.lock()", 2)
            lines.add("let cancelled = isCancelled", 2)
            lines.add("if !cancelled { self.continuation = continuation }", 2)
            lines.add("lock.unlock()", 2)
            lines.add("if cancelled { continuation.resume(throwing: CancellationError()) }", 2)
            lines.add("return !cancelled", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("fileprivate func take() -> CheckedContinuation<Value, any \(errorType)>? {", 1)
            lines.add("lock.lock()", 2)
            lines.add("defer { lock.unlock() }", 2)
            lines.add("let taken = continuation", 2)
            lines.add("continuation = nil", 2)
            lines.add("return taken", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("func resume(returning value: sending Value) { take()?.resume(returning: value) }", 1)
            lines.add("func resume(throwing error: any \(errorType)) { take()?.resume(throwing: error) }", 1)
            lines.add("func resume<Failure: \(errorType)>(with result: sending Swift.Result<Value, Failure>) {", 1)
            lines.add("switch result {", 2)
            lines.add("case .success(let value): resume(returning: value)", 2)
            lines.add("case .failure(let error): resume(throwing: error)", 2)
            lines.add("}", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("/// Keeps how to cancel the handle, or cancels it at once when the Task was cancelled already.", 1)
            lines.add("func store(_ cancelHandle: @escaping @Sendable () -> Void) {", 1)
            lines.add("lock.lock()", 2)
            lines.add("let cancelled = isCancelled", 2)
            lines.add("if !cancelled { self.cancelHandle = cancelHandle }", 2)
            lines.add("lock.unlock()", 2)
            lines.add("if cancelled { cancelHandle() }", 2)
            lines.add("}", 1)
            lines.add("", 1)
            lines.add("/// The awaiting Task was cancelled: unless the original answered first, the await throws", 1)
            lines.add("/// `CancellationError`; the handle is cancelled.", 1)
            lines.add("func cancel() {", 1)
            lines.add("lock.lock()", 2)
            lines.add("isCancelled = true", 2)
            lines.add("let cancelHandle = self.cancelHandle", 2)
            lines.add("self.cancelHandle = nil", 2)
            lines.add("let taken = continuation", 2)
            lines.add("continuation = nil", 2)
            lines.add("lock.unlock()", 2)
            lines.add("taken?.resume(throwing: CancellationError())", 2)
            lines.add("cancelHandle?()", 2)
            lines.add("}", 1)
            lines.add("}", 0)
            lines.add("", 0)
            lines.add("extension \(typeName) where Value == Void {", 0)
            lines.add("func resume() { take()?.resume() }", 1)
            lines.add("}", 0)
        }
        return lines
    }

    /// The declarations of `needed`, always in the same order, a blank line between them.
    static func declarations(of needed: Set<Self>, errorType: String = "Error") -> CodeLines {
        var lines = CodeLines()
        for (position, support) in allCases.filter(needed.contains).enumerated() {
            if position > 0 { lines.add("", 0) }
            lines.add(support.declaration(errorType: errorType), indentedBy: 0)
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
