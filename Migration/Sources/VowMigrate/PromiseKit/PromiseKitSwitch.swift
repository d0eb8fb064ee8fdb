import SwiftSyntax

/// `--from-promisekit`: the edits that move one file from PromiseKit to Vow. Vow keeps PromiseKit's
/// API except one spelling, so the switch is the import plus PromiseKit's synchronous `value`,
/// which Vow calls `valueIfFulfilled` (its `value` is the async accessor).
///
/// Without a type checker a `.value` is only changed when the file itself shows its base is a
/// promise (see `PromiseEvidence`); a base that could be one is reported for a person to decide.
struct PromiseKitSwitch {
    static let reviewMessage = "may be PromiseKit's synchronous `value`; if this is a promise, use `valueIfFulfilled`"

    let bytes: [UInt8]
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    private(set) var edits: [TextEdit] = []
    private(set) var findings: [Finding] = []

    init(source: String, tree: SourceFileSyntax, converter: SourceLocationConverter) {
        self.bytes = Array(source.utf8)
        self.tree = tree
        self.converter = converter
    }

    mutating func run() {
        let finder = ValueReadFinder()
        finder.walk(tree)
        let importsPromiseKit = finder.imports.contains { Self.isPromiseKitModule($0.path.first?.name.text ?? "") }
        switchImports(finder.imports)
        // A file that already imports Vow may still hold the old spelling (a partial migration);
        // one that imports neither is left alone.
        guard importsPromiseKit || finder.imports.contains(where: { $0.path.first?.name.text == "Vow" }) else { return }
        switchQualifiedNames(finder.qualifiedNames)
        let evidence = PromiseEvidence(tree: tree)
        for read in finder.valueReads {
            guard let base = read.base else { continue }
            switch evidence.evidence(of: base) {
            case .promise:
                let name = read.declName.baseName
                let start = name.positionAfterSkippingLeadingTrivia.utf8Offset
                edits.append(TextEdit(offset: start, removing: name.endPositionBeforeTrailingTrivia.utf8Offset - start, text: "valueIfFulfilled"))
                report(.switched, Self.shortDescription(of: read), at: name, "`.value` became `.valueIfFulfilled`, Vow's synchronous look at a fulfilled value")
            case .unknown where importsPromiseKit && Self.couldBePromise(base):
                report(.review, Self.shortDescription(of: read), at: read.declName.baseName, Self.reviewMessage)
            case .unknown, .other, .pendingPair:
                continue
            }
        }
    }

    // MARK: - Imports

    private mutating func switchImports(_ imports: [ImportDeclSyntax]) {
        var vowImports = Set(imports.filter { $0.path.first?.name.text == "Vow" }.map(Self.importKey))
        for decl in imports {
            guard let module = decl.path.first?.name else { continue }
            if module.text == "PromiseKit" {
                let key = Self.importKey(decl)
                if vowImports.contains(key) {
                    removeLine(of: decl)
                    report(.switched, decl.trimmedDescription, at: decl.importKeyword, "removed: the file already imports Vow")
                } else {
                    let start = module.positionAfterSkippingLeadingTrivia.utf8Offset
                    edits.append(TextEdit(offset: start, removing: module.endPositionBeforeTrailingTrivia.utf8Offset - start, text: "Vow"))
                    vowImports.insert(key)
                    report(.switched, decl.trimmedDescription, at: decl.importKeyword, "`PromiseKit` became `Vow`")
                }
                reportConditionNaming(module.text, around: decl)
            } else if Self.isPromiseKitModule(module.text) {
                report(.review, decl.trimmedDescription, at: decl.importKeyword,
                       "`\(module.text)` is a PromiseKit extension module and has no Vow counterpart; wrap the calls you use in `Promise { seal in ... }` and remove the import")
            }
        }
    }

    // MARK: - Module-qualified names

    /// Vow's top-level declarations: the names `PromiseKit.X` can become `Vow.X` for
    /// (`VowNamesTests` holds the list to Vow's sources).
    static let vowTopLevelNames: Set<String> = [
        "AbandonmentPolicy", "CancellableError", "CancellationToken", "CancellationTokenRegistration", "CancellationTokenSource", "CatchMixin",
        "CatchPolicy", "CompletionOrderResults", "CompletionOrderValues", "CreationSite", "Diagnostic", "Guarantee", "LogEvent",
        "MainActorQueue", "PMKConfiguration", "PMKError", "PMKFinalizer", "PMKNamespacer", "Promise", "Resolver", "Result",
        "Thenable", "UnhandledRejection", "VowError", "VowSendableMetatype", "after", "conf", "firstly", "hang", "race", "when",
        "withCallback", "withCancellationToken", "withValueCallback",
    ]

    /// `PromiseKit.conf.Q.map`, `(PromiseKit.LogEvent) -> Void`: the module's name becomes `Vow`
    /// where Vow declares the name; elsewhere the name is reported, since the file no longer
    /// imports PromiseKit.
    private mutating func switchQualifiedNames(_ names: [TokenSyntax]) {
        for module in names {
            guard let member = Self.qualifiedMember(after: module) else { continue }
            if Self.vowTopLevelNames.contains(member.text) {
                let start = module.positionAfterSkippingLeadingTrivia.utf8Offset
                edits.append(TextEdit(offset: start, removing: module.endPositionBeforeTrailingTrivia.utf8Offset - start, text: "Vow"))
                report(.switched, "PromiseKit.\(member.text)", at: module, "`PromiseKit.\(member.text)` became `Vow.\(member.text)`")
            } else {
                report(.review, "PromiseKit.\(member.text)", at: module,
                       "Vow has no `\(member.text)`; the switched file no longer imports PromiseKit, so replace this use")
            }
        }
    }

    /// The name after `PromiseKit.` in an expression or a type.
    private static func qualifiedMember(after module: TokenSyntax) -> TokenSyntax? {
        if let reference = module.parent?.as(DeclReferenceExprSyntax.self),
           let access = reference.parent?.as(MemberAccessExprSyntax.self), access.base?.id == reference.id {
            return access.declName.baseName
        }
        if let identifier = module.parent?.as(IdentifierTypeSyntax.self),
           let memberType = identifier.parent?.as(MemberTypeSyntax.self), memberType.baseType.id == identifier.id {
            return memberType.name
        }
        return nil
    }

    /// `#if canImport(PromiseKit)` turns false once PromiseKit is gone, taking the switched code with it.
    private mutating func reportConditionNaming(_ module: String, around decl: ImportDeclSyntax) {
        var current = decl.parent
        while let syntax = current {
            if let clause = syntax.as(IfConfigClauseSyntax.self), let condition = clause.condition,
               identifiers(in: condition.trimmedDescription).contains(module) {
                report(.review, "\(clause.poundKeyword.text) \(condition.trimmedDescription)", at: clause.poundKeyword,
                       "names `\(module)`, which the switched code no longer imports; name `Vow` instead")
            }
            current = syntax.parent
        }
    }

    /// Two imports are the same when only the module differs (`@testable`, `struct`, submodules count).
    private static func importKey(_ decl: ImportDeclSyntax) -> String {
        let rest = decl.path.dropFirst().map(\.name.text).joined(separator: ".")
        return "\(decl.attributes.trimmedDescription)|\(decl.importKindSpecifier?.text ?? "")|\(rest)"
    }

    /// `PromiseKit` itself and its extension modules (`PMKFoundation`, `PromiseKitUIKit`...).
    static func isPromiseKitModule(_ name: String) -> Bool {
        name.hasPrefix("PromiseKit") || name.hasPrefix("PMK")
    }

    /// Removes the declaration with its line when it stands alone on it, the declaration only otherwise.
    private mutating func removeLine(of decl: ImportDeclSyntax) {
        var start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        var end = decl.endPositionBeforeTrailingTrivia.utf8Offset
        var lineStart = start
        while lineStart > 0 && (bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t")) { lineStart -= 1 }
        var lineEnd = end
        while lineEnd < bytes.count && (bytes[lineEnd] == UInt8(ascii: " ") || bytes[lineEnd] == UInt8(ascii: "\t") || bytes[lineEnd] == UInt8(ascii: "\r")) { lineEnd += 1 }
        if (lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n")) && lineEnd < bytes.count && bytes[lineEnd] == UInt8(ascii: "\n") {
            start = lineStart
            end = lineEnd + 1
        }
        edits.append(TextEdit(offset: start, removing: end - start, text: ""))
    }

    // MARK: - Reads of `value`

    /// Bases worth a report: plain names, member chains and calls of functions the file does not
    /// declare. Literals, subscripts, closures and the like are not promises anyone writes.
    private static func couldBePromise(_ base: ExprSyntax) -> Bool {
        let base = PromiseEvidence.unwrapped(base)
        if base.is(DeclReferenceExprSyntax.self) { return true }
        if let member = base.as(MemberAccessExprSyntax.self) {
            return member.base.map(couldBePromise) ?? false
        }
        if let call = base.as(FunctionCallExprSyntax.self) {
            return couldBePromise(call.calledExpression)
        }
        return false
    }

    private static func shortDescription(of read: MemberAccessExprSyntax) -> String {
        let text = read.trimmedDescription
        return text.contains("\n") || text.count > 60 ? "….value" : text
    }

    private mutating func report(_ kind: Finding.Kind, _ code: String, at token: TokenSyntax, _ message: String) {
        let location = token.startLocation(converter: converter)
        findings.append(Finding(kind: kind, function: code, line: location.line, column: location.column, message: message))
    }
}

/// The imports of a file and its reads of a member named `value` that PromiseKit's synchronous
/// `value` could be: not calls (`.value(x)`), not static members (`Promise.value`), not under
/// `await` (Vow's async `value`), not assigned to.
private final class ValueReadFinder: SyntaxVisitor {
    private(set) var imports: [ImportDeclSyntax] = []
    private(set) var valueReads: [MemberAccessExprSyntax] = []
    /// Each `PromiseKit` that qualifies a name (`PromiseKit.conf`, `PromiseKit.LogEvent`).
    private(set) var qualifiedNames: [TokenSyntax] = []

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        imports.append(node)
        return .skipChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == "PromiseKit", node.parent?.is(MemberAccessExprSyntax.self) == true { qualifiedNames.append(node.baseName) }
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        if let base = node.baseType.as(IdentifierTypeSyntax.self), base.name.text == "PromiseKit" { qualifiedNames.append(base.name) }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.declName.baseName.text == "value", node.declName.argumentNames == nil,
              let base = node.base, !PromiseEvidence.isPromiseTypeReference(PromiseEvidence.unwrapped(base)) else {
            return .visitChildren
        }
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return .visitChildren }
        if isAwaited(node) || isAssigned(node) { return .visitChildren }
        valueReads.append(node)
        return .visitChildren
    }

    /// Under `await` within the same statement (a closure starts a new context), including the
    /// operands right of `await` in `try await a + b.value`, which Swift's `await` covers too.
    private func isAwaited(_ node: MemberAccessExprSyntax) -> Bool {
        var child = Syntax(node)
        while let syntax = child.parent {
            if syntax.is(AwaitExprSyntax.self) { return true }
            if syntax.is(CodeBlockItemSyntax.self) || syntax.is(ClosureExprSyntax.self) || syntax.is(MemberBlockItemSyntax.self) {
                return false
            }
            if let list = syntax.as(ExprListSyntax.self) {
                for element in list {
                    if element.id == child.id { break }
                    if Self.startsWithAwait(element) { return true }
                }
            }
            child = syntax
        }
        return false
    }

    private static func startsWithAwait(_ expression: ExprSyntax) -> Bool {
        if expression.is(AwaitExprSyntax.self) { return true }
        if let attempt = expression.as(TryExprSyntax.self) { return startsWithAwait(attempt.expression) }
        return false
    }

    /// `x.value = 1`, `x.value += 1`, `&x.value`: a stored property, never a promise's.
    private func isAssigned(_ node: MemberAccessExprSyntax) -> Bool {
        if node.parent?.is(InOutExprSyntax.self) == true { return true }
        guard let list = node.parent?.as(ExprListSyntax.self) else { return false }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == node.id }), index + 1 < elements.count else { return false }
        let next = elements[index + 1]
        if next.is(AssignmentExprSyntax.self) { return true }
        if let operation = next.as(BinaryOperatorExprSyntax.self) {
            let text = operation.operator.text
            return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
        }
        return false
    }
}
