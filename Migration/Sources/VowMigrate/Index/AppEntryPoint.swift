import SwiftSyntax

/// Where a file starts an application: the sign that a tree is an app, whose frameworks' public
/// functions are called only by its own targets (``PublicAPI/auto``).
///
/// Read from the file's top-level declarations alone: a class, struct or enum marked `@main`,
/// `@UIApplicationMain` or `@NSApplicationMain` that is a SwiftUI `App` or an application
/// delegate (what it inherits says so), or a top-level `UIApplicationMain(...)` /
/// `NSApplicationMain(...)` call. A command-line tool's `@main` is not an app: its package may
/// ship a library too.
enum AppEntryPoint {
    private static let attributes: Set<String> = ["main", "UIApplicationMain", "NSApplicationMain"]
    private static let applicationTypes: Set<String> = [
        "App", "SwiftUI.App", "UIApplicationDelegate", "NSApplicationDelegate", "UIResponder",
        "WKApplicationDelegate", "WKExtensionDelegate",
    ]
    private static let mainFunctions: Set<String> = ["UIApplicationMain", "NSApplicationMain"]

    static func first(in tree: SourceFileSyntax, fileName: String, converter: SourceLocationConverter) -> MigrationIndex.Location? {
        for statement in tree.statements {
            let item = statement.item
            if let call = item.as(FunctionCallExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self),
               let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, mainFunctions.contains(name) {
                return location(of: call, fileName, converter)
            }
            let declaration: (attributes: AttributeListSyntax, inheritance: InheritanceClauseSyntax?)?
            if let type = item.as(ClassDeclSyntax.self) {
                declaration = (type.attributes, type.inheritanceClause)
            } else if let type = item.as(StructDeclSyntax.self) {
                declaration = (type.attributes, type.inheritanceClause)
            } else if let type = item.as(EnumDeclSyntax.self) {
                declaration = (type.attributes, type.inheritanceClause)
            } else {
                declaration = nil
            }
            guard let declaration else { continue }
            let marked = declaration.attributes.contains { element in
                guard let attribute = element.as(AttributeSyntax.self) else { return false }
                return attributes.contains(attribute.attributeName.trimmedDescription)
            }
            let inherited = declaration.inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
            if marked, inherited.contains(where: applicationTypes.contains) {
                return location(of: item, fileName, converter)
            }
        }
        return nil
    }

    private static func location(of node: some SyntaxProtocol, _ fileName: String, _ converter: SourceLocationConverter) -> MigrationIndex.Location {
        let place = node.startLocation(converter: converter)
        return MigrationIndex.Location(file: fileName, line: place.line, column: place.column)
    }
}
