import ExampleSupport
import GradualMigrationKit
import Vow
import XCTest

/// The GradualMigration example does what its printout claims, stage by stage.
final class GradualMigrationTests: XCTestCase {
    private let transcript = Transcript(echo: false)
    private lazy var weather = LegacyWeatherService(transcript: transcript)
    private lazy var alerts = SevereWeatherAlerts(transcript: transcript)

    // MARK: - Stage 1

    func testStage1PromiseChainsSayTheTemperatureOrTheLegacyError() async {
        await GradualMigrationTour.promiseChainsOverCallbacks(weather: weather, transcript: transcript)

        XCTAssertEqual(transcript.lines, [
            "stage 1   | Oslo: -3.5 °C",
            "stage 1   | Pune: failed with stationOffline(\"Pune\")",
            "stage 1   | Atlantis: failed with unknownCity(\"Atlantis\")",
        ])
    }

    func testStage1WrappersSettleAsTheirCallbacksDo() async throws {
        let city = try await weather.findCity(named: "Lima").value
        XCTAssertEqual(city, City(id: 2, name: "Lima"))
        let celsius = try await weather.currentTemperature(cityID: city.id).value
        XCTAssertEqual(celsius, 19.0)
        let forecast = try await weather.forecast(cityID: city.id, days: 2).value
        XCTAssertEqual(forecast, [19.5, 20.0])
    }

    // MARK: - Stage 2

    func testStage2AsyncCodeAwaitsThePromiseLayer() async throws {
        let summary = try await weatherSummary(cityNamed: "Lima", days: 3, weather: weather)

        XCTAssertEqual(summary, WeatherSummary(city: "Lima", celsius: 19.0, forecast: [19.5, 20.0, 20.5]))
    }

    func testStage2AsyncCodeCatchesTheErrorsTheCallbacksReported() async {
        do {
            _ = try await weatherSummary(cityNamed: "Atlantis", days: 3, weather: weather)
            XCTFail("Atlantis has no weather")
        } catch {
            XCTAssertEqual(error as? WeatherError, .unknownCity("Atlantis"))
        }
        do {
            _ = try await weatherSummary(cityNamed: "Pune", days: 3, weather: weather)
            XCTFail("Pune's station is offline")
        } catch {
            XCTAssertEqual(error as? WeatherError, .stationOffline("Pune"))
        }
    }

    func testStage2ScenarioSaysTheSummaryThenTheUnknownCity() async {
        await GradualMigrationTour.asyncCodeOverPromises(weather: weather, transcript: transcript)

        XCTAssertEqual(transcript.lines, [
            "legacy    | forecast for Lima: computing 3 days",
            "legacy    | forecast for Lima: done",
            "stage 2   | Lima: 19.0 °C now, then [19.5, 20.0, 20.5]",
            "stage 2   | no city called Atlantis",
        ])
    }

    func testCancellingTheTaskCancelsTheLegacyRequestThroughTheToken() async throws {
        let error = await GradualMigrationTour.cancellingTheTaskStopsLegacyWork(weather: weather, transcript: transcript)

        let taskError = try XCTUnwrap(error, "the Task should end with a cancellation")
        XCTAssertTrue(taskError.isCancelled)
        // How many days the legacy loop computed depends on timing; that it stopped early does not.
        XCTAssertEqual(transcript.lines.map(withoutNumbers), [
            "legacy    | forecast for Oslo: computing # days",
            "stage #   | cancelling the Task",
            "legacy    | forecast for Oslo: stopped after # of # days, request cancelled",
            "stage #   | the Task ended: cancelled",
        ])
        XCTAssertLessThan(try progress(before: "legacy    | forecast for Oslo: stopped"), 10)
    }

    // MARK: - Stage 3

    func testStage3PromiseChainsGetTheAsyncResultOrItsError() async {
        await GradualMigrationTour.promiseChainsOverAsync(weather: weather, alerts: alerts, transcript: transcript)

        XCTAssertEqual(transcript.lines, [
            "async     | alerts for Oslo: asked all 10 sources",
            "stage 3   | Oslo: icy roads",
            "stage 3   | Lima: failed with sourcesUnavailable(\"Lima\")",
        ])
    }

    func testCancellingTheTokenRejectsAtOnceAndStopsTheTask() async throws {
        let error = await GradualMigrationTour.cancellingTheTokenStopsTheTask(alerts: alerts, transcript: transcript)

        XCTAssertEqual(error as? VowError, .cancelled)
        XCTAssertEqual(transcript.lines.map(withoutNumbers), [
            "stage #   | cancelling the token",
            "stage #   | the promise was rejected at once: The operation was cancelled",
            "async     | alerts for Oslo: stopped after # of # sources, CancellationError",
        ])
        XCTAssertLessThan(try progress(before: "async     | alerts for Oslo: stopped"), 10)
    }

    // MARK: - The whole program

    func testTheTourRunsEveryStageInOrder() async {
        await GradualMigrationTour.run(transcript: transcript)

        XCTAssertEqual(transcript.lines(startingWith: "=="), [
            "== Stage 1: promise wrappers around the callbacks, used by promise chains",
            "== Stage 2: new async code awaiting the promise layer",
            "== Stage 3: promise code calling new async code",
        ])
        XCTAssertEqual(transcript.lines.count, 22)
    }

    // MARK: - Helpers

    /// How far cancelled work got: the first number in the line starting with `stopLinePrefix`
    /// ("stopped after 2 of 10 days" gives 2).
    private func progress(before stopLinePrefix: String) throws -> Int {
        let stopLine = try XCTUnwrap(transcript.lines(startingWith: stopLinePrefix).first)
        return try XCTUnwrap(stopLine.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.first)
    }
}

/// `line` with every word that is a number replaced by `#`, for lines whose counts depend on timing.
private func withoutNumbers(_ line: String) -> String {
    line.split(separator: " ", omittingEmptySubsequences: false)
        .map { word in word.allSatisfy(\.isNumber) && !word.isEmpty ? "#" : String(word) }
        .joined(separator: " ")
}
