/// One thing the migration did, or declined to do, at a place in a file.
public struct Finding: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// An alternative was added beside the original function.
        case added
        /// The function itself was converted (`--replace`).
        case replaced
        /// The function already has an alternative in the target form; nothing to do.
        case alreadyMigrated
        /// The function takes a completion handler but could not be converted safely.
        case skipped
        /// The file does not parse; it was left alone.
        case parseError
        /// `--from-promisekit`: a PromiseKit import or spelling was changed to Vow's.
        case switched
        /// `--from-promisekit`: left alone, but may need a change by hand (the message says which).
        case review
        /// `--stage call-sites`: a statement calling completion handlers became a promise chain or
        /// `try await` code (`function` is the enclosing function; the message says which form).
        case callSiteConverted
        /// `--stage call-sites`: a call with a handler closure left alone; the message is the reason.
        case callSiteRefused
        /// Not a completion-handler function by the rule, although it takes an escaping closure
        /// returning nothing (the message says why); listed with `--verbose`, not a candidate.
        case rejected

        /// Whether this finding is the one every completion-handler function gets: `added`,
        /// `replaced`, `alreadyMigrated` or `skipped` (a skip without a function is a file's).
        public var isCandidateOutcome: Bool {
            switch self {
            case .added, .replaced, .alreadyMigrated, .skipped: return true
            case .parseError, .switched, .review, .rejected, .callSiteConverted, .callSiteRefused: return false
            }
        }
    }

    public var kind: Kind
    /// The function as Swift names it, `fetchUser(id:completion:)`; for `switched` and `review`
    /// the code concerned (`promise.value`, `import PMKFoundation`); empty for a parse error.
    public var function: String
    /// 1-based line of the function (of the parse error, of the import, of the `value` name).
    public var line: Int
    /// 1-based column, in UTF-8 bytes as the compiler counts them.
    public var column: Int
    /// What was added, or why nothing was.
    public var message: String
    /// More about the message, printed under it and kept out of the summary's grouping of
    /// reasons: for a promise-returning function `--replace` leaves alone, the calls that keep it so.
    public var detail: String?

    /// Whether this finding stands for one completion-handler function (see `Kind`).
    public var isCandidate: Bool { kind.isCandidateOutcome && !function.isEmpty }

    public init(kind: Kind, function: String, line: Int, column: Int, message: String, detail: String? = nil) {
        self.kind = kind
        self.function = function
        self.line = line
        self.column = column
        self.message = message
        self.detail = detail
    }
}

/// The outcome of migrating one file's text.
public struct FileMigration: Sendable {
    /// The new text; identical to the input when nothing changed.
    public var output: String
    /// Whether `output` differs from the input.
    public var changed: Bool
    /// Everything worth telling, in source order.
    public var findings: [Finding]
    /// Whether `output` gained `import Vow` (the promise form, or code that names a Vow type).
    /// The async form never adds it: in a file without Vow it needs only the standard library.
    public var addedVowImport: Bool
    /// The async form's call-site stage: forwarding callbacks left alone and calls converted
    /// (``ForwardingFacts``), for the run to decide on across files.
    public var forwarding: ForwardingFacts

    public init(output: String, changed: Bool, findings: [Finding], addedVowImport: Bool = false, forwarding: ForwardingFacts = ForwardingFacts()) {
        self.output = output
        self.changed = changed
        self.findings = findings
        self.addedVowImport = addedVowImport
        self.forwarding = forwarding
    }
}
