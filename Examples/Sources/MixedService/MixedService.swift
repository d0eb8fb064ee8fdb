import ExampleSupport
import MixedServiceKit

/// Runs the mixed async/promise service over a batch of requests, printing each response as it
/// is ready and a summary. See MixedServiceKit for the code.
///
/// An async `@main` needs no `dispatchMain()`: the repository's timers fire on global queues, every
/// promise handler runs `on: nil`, and `await promise.value` resumes without any queue.
@main
struct MixedService {
    static func main() async {
        // The summary is printed as the last line; the tests check the returned value.
        _ = await MixedServiceTour.run(transcript: Transcript(echo: true))
    }
}
