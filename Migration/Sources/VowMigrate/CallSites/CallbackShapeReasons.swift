/// The call-site refusals that come from the shape of a callback's own code (a `guard`, code
/// before the error check, an answer the callback gives meaning to), as opposed to the call's
/// place or its callee. The promise form's chains cannot hold such code; the async form keeps it
/// as it is (``InlinePyramidWriter``), which the run's summary points out.
public enum CallbackShapeReasons {
    /// How each such refusal begins, as ``PyramidReader`` words it (`CallbackShapeReasonsTests`
    /// checks each is still there).
    static let prefixes = [
        "a `guard` inside a callback",
        "a (Bool, Error?) answer of `(false, nil)`",
        "(Error?, T?) callbacks are not flattened",
        "separate success and failure callbacks are not flattened",
        "callbacks passing several values are not flattened",
        "the callback does not start by checking its error",
        "the error branch does not end with `return`",
        "an `else if` after the error check",
        "the callback does not consist of one `switch",
        "a switch on Result with `default:`",
        "a case of the switch on Result this tool does not read",
        "the callback reads `",
        "the failure branch uses the value sent together with the error",
        "the callback names its parameters implicitly",
        "an early `return` inside",
    ]

    /// Whether a refusal's reason is about the callback's own code.
    public static func isCallbackShape(_ reason: String) -> Bool {
        prefixes.contains { reason.hasPrefix($0) }
    }
}
