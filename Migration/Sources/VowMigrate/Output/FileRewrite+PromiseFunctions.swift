import SwiftSyntax

extension FileRewrite {
    /// The index's summary of the function at `site` when it returns `Promise<T>` or
    /// `Guarantee<T>` (directly or through a typealias), neither `async` nor `throws`: with
    /// `--to async` it gains an async alternative.
    func promiseFunction(at site: DeclarationCollector.FunctionSite) -> PromiseFunctionSummary? {
        guard site.decl.signature.returnClause != nil, index.promiseFunctionsByBaseName[site.decl.name.text.filter { $0 != "`" }] != nil
        else { return nil }
        let place = site.decl.funcKeyword.startLocation(converter: converter)
        return index.promiseFunction(named: site.decl.name.text, at: MigrationIndex.Location(file: fileName, line: place.line, column: place.column))
    }

    /// Adds the async alternative of a promise-returning function beside it (in an extension of
    /// its protocol for a requirement), or reports why not.
    mutating func addPromiseAlternative(_ summary: PromiseFunctionSummary, at site: DeclarationCollector.FunctionSite, importsVow: Bool,
                                        protocolAlternatives: inout [(protocolDecl: ProtocolDeclSyntax, lines: [CodeLines])]) {
        var emitter = PromiseFunctionAlternative(decl: site.decl, valueType: summary.valueType, isGuarantee: summary.isGuarantee)
        emitter.runsOnCallersActor = runsOnCallersActor(site.actorContext)
        let name = emitter.swiftName
        // Without `import Vow`, `Promise` is Vow's through an `@_exported import` elsewhere (the
        // index refuses a tree declaring its own), or PromiseKit's, which is not ours to convert.
        if !importsVow && importsModule("PromiseKit") {
            report(.skipped, name, site.decl, "the file imports PromiseKit, whose `value` is not Vow's async one: "
                   + "switch the tree to Vow first (--from-promisekit, in the same run or before)")
            return
        }
        switch index.promiseAlternative(of: summary) {
        case .alreadyMigrated(let message):
            report(.alreadyMigrated, name, site.decl, message)
        case .skipped(let reason):
            report(.skipped, name, site.decl, reason)
        case .add(let calls):
            if let protocolDecl = site.protocolDecl {
                guard site.protocolIsTopLevel else {
                    report(.skipped, name, site.decl, "the protocol is nested in a type; its alternative needs a file-scope extension")
                    return
                }
                if let position = protocolAlternatives.firstIndex(where: { $0.protocolDecl.id == protocolDecl.id }) {
                    protocolAlternatives[position].lines.append(emitter.declaration())
                } else {
                    protocolAlternatives.append((protocolDecl, [emitter.declaration()]))
                }
            } else {
                insertAfter(site.decl, emitter.declaration())
            }
            let spelled = calls.isEmpty ? "" : "; \(calls.count) existing call\(calls.count == 1 ? "" : "s") in async code spelled out "
                + "(`as \(summary.isGuarantee ? "Guarantee" : "Promise")`) so \(calls.count == 1 ? "it keeps" : "they keep") calling the original"
            report(.added, name, site.decl, "added `\(emitter.summary)`" + spelled)
        }
    }

    /// Wraps each call of this file that an added async alternative of a promise-returning
    /// function would take over: `load(id: 1)` in async code becomes `(load(id: 1) as Promise)`.
    mutating func spellOutPromiseCalls() {
        let names = Set(index.promiseFunctionsByBaseName.keys)
        guard !names.isEmpty else { return }
        let collector = ExistingCallCollector(fileName: fileName, converter: converter, names: names)
        collector.walk(tree)
        var verdicts: [MigrationIndex.Location: PromiseAlternativeVerdict] = [:]
        for call in collector.calls where call.inAsyncCode {
            if let ownedRange, !ownedRange.contains(call.callStart) { continue }
            // `--stage all`: `try await load(id: 1).value` calls the alternative instead,
            // `try await load(id: 1)`, which awaits that same promise.
            if callSitesFollow, call.resultUse == .readsValue, index.awaitsAlternative(call), readsValue(at: call.callEnd) {
                edits.append(Edit(offset: call.callEnd, removing: 6, text: ""))
                spelledOutOffsets.append(call.callEnd)
                continue
            }
            for function in index.promiseFunctionsByBaseName[call.baseName] ?? [] where !function.isContext {
                let verdict = verdicts[function.location] ?? index.promiseAlternative(of: function)
                verdicts[function.location] = verdict
                guard case .add(let spelled) = verdict, spelled.contains(where: { $0.location == call.location }) else { continue }
                edits.append(Edit(offset: call.callStart, removing: 0, text: "("))
                edits.append(Edit(offset: call.callEnd, removing: 0, text: " as \(function.isGuarantee ? "Guarantee" : "Promise"))"))
                spelledOutOffsets.append(call.callStart)
                spelledOutOffsets.append(call.callEnd)
                break
            }
        }
    }

    /// The edit removing `.value` after a call that now reaches the async alternative.
    func isDroppedValue(_ edit: Edit) -> Bool {
        edit.removing == 6 && edit.text.isEmpty && readsValue(at: edit.offset)
    }

    /// `.value` is written at `offset`.
    private func readsValue(at offset: Int) -> Bool {
        offset + 6 <= bytes.count && bytes[offset..<offset + 6].elementsEqual(".value".utf8)
    }

    private func importsModule(_ module: String) -> Bool {
        tree.statements.contains { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text == module }
    }
}
