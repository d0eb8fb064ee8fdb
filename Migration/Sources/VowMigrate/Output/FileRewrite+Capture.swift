import SwiftSyntax

/// No existing call may change callee when an alternative is added (``CaptureCheck``): the
/// declaring file refuses an alternative that would capture a call it cannot spell out, and every
/// file spells out the calls that leave a defaulted handler out (`completion: nil`), from the
/// index's verdict, which each file of the run reads alike.
extension FileRewrite {
    /// The calls the alternative would capture, all of which can be spelled out, or why it
    /// cannot be added.
    func captureCheck(_ function: CompletionFunction, emitter: AlternativeEmitter,
                      site: DeclarationCollector.FunctionSite) -> Result<[ExistingCall], SkipReason> {
        let place = site.decl.funcKeyword.startLocation(converter: converter)
        let location = MigrationIndex.Location(file: fileName, line: place.line, column: place.column)
        switch index.captureCheck(of: function, emitter: emitter, scope: site.scope, location: location) {
        case .none:
            return .success([])
        case .refused(let reason):
            return .failure(SkipReason(reason))
        case .spellOut(let calls):
            // Other files spell their calls out from the index's summary of this function: it
            // must say the same, or a call there would be captured.
            guard let summary = index.completionFunctions(baseName: function.name.filter { $0 != "`" })
                .first(where: { $0.location == location }),
                  case .generated = summary.alternative(for: target),
                  index.captureCheck(of: summary, target: target) == .spellOut(calls) else {
                return .failure(SkipReason("existing calls leave its handler out, and the run could not check them all; "
                                           + "pass the handler at those calls, or drop its default"))
            }
            return .success(calls)
        }
    }

    /// Spells out, at each call of this file that an added alternative would capture, the handler
    /// the call leaves out, in its position among the arguments.
    mutating func spellOutCapturedCalls() {
        let names = index.defaultedHandlerNames
        guard !names.isEmpty else { return }
        let collector = ExistingCallCollector(fileName: fileName, converter: converter, names: names)
        collector.walk(tree)
        var verdicts: [String: CaptureCheck] = [:]
        for call in collector.calls {
            if let ownedRange, let offset = call.argumentEnds.first ?? call.afterLeftParen, !ownedRange.contains(offset) { continue }
            for function in index.completionFunctions(baseName: call.baseName)
            where !function.isContext && !function.handlerDefaults.isEmpty {
                guard case .generated = function.alternative(for: target) else { continue }
                let key = function.swiftName + "@" + function.location.description
                let verdict = verdicts[key] ?? index.captureCheck(of: function, target: target)
                verdicts[key] = verdict
                guard case .spellOut(let calls) = verdict, calls.contains(where: { $0.location == call.location }) else { continue }
                spellOut(call, omitting: function)
                break
            }
        }
    }

    /// `load(id: 1)` becomes `load(id: 1, completion: nil)`: each omitted handler goes after the
    /// last argument filling an earlier parameter (the capture check made sure no trailing
    /// closure fills one).
    private mutating func spellOut(_ call: ExistingCall, omitting function: MigrationIndex.CompletionFunctionSummary) {
        guard let slots = CallBinding.bind(call, to: function.parameterShapes) else { return }
        for handler in function.handlerIndices.sorted() where slots[handler] == nil {
            guard let value = CallBinding.spellableDefault(function.handlerDefaults[handler] ?? "") else { continue }
            let label = function.parameterShapes[handler].label
            let argument = (label.map { "\($0): " } ?? "") + value
            let before = slots[..<handler].compactMap { slot -> Int? in
                if case .argument(let position) = slot { return position }
                return nil
            }.max()
            let edit: Edit
            if let before {
                edit = Edit(offset: call.argumentEnds[before], removing: 0, text: ", " + argument)
            } else if let afterLeftParen = call.afterLeftParen {
                edit = Edit(offset: afterLeftParen, removing: 0, text: argument + (call.labels.isEmpty ? "" : ", "))
            } else {
                edit = Edit(offset: call.calleeEnd, removing: 0, text: "(" + argument + ")")
            }
            edits.append(edit)
            spelledOutOffsets.append(edit.offset)
            spelledOutInsertions[edit.offset] = edit.text
        }
    }
}
