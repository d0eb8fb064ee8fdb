import ExampleSupport
import GradualMigrationKit

/// Runs the gradual-migration tour, printing each step. See GradualMigrationKit for the code.
///
/// An async `@main` needs no `dispatchMain()`: nothing in the tour waits on the main queue, because
/// every promise handler runs `on: nil` and every `await promise.value` resumes without a queue.
@main
struct GradualMigration {
    static func main() async {
        await GradualMigrationTour.run(transcript: Transcript(echo: true))
    }
}
