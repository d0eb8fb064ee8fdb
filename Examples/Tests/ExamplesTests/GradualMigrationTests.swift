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
            "== One feature at all three stages, each calling the others",
        ])
        XCTAssertEqual(transcript.lines.count, 30)
    }

    // MARK: - One feature at three stages

    func testEveryStageGetsTheSameReportFromEveryVersion() async throws {
        let oslo = TemperatureReport(city: "Oslo", celsius: -3.5)

        let fromCallbackCode = [
            try await report(fromCallbackCode: CallbackCode.temperatureReport),
            try await report(fromCallbackCode: CallbackCode.temperatureReportFromPromiseCode),
            try await report(fromCallbackCode: CallbackCode.temperatureReportFromAsyncCode),
        ]
        let fromPromiseCode = [
            try await PromiseCode.temperatureReportFromCallbackCode(cityNamed: "Oslo", weather: weather).value,
            try await PromiseCode.temperatureReport(cityNamed: "Oslo", weather: weather).value,
            try await PromiseCode.temperatureReportFromAsyncCode(cityNamed: "Oslo", weather: weather).value,
        ]
        let fromAsyncCode = [
            try await AsyncCode.temperatureReportFromCallbackCode(cityNamed: "Oslo", weather: weather),
            try await AsyncCode.temperatureReportFromPromiseCode(cityNamed: "Oslo", weather: weather),
            try await AsyncCode.temperatureReport(cityNamed: "Oslo", weather: weather),
        ]

        XCTAssertEqual(fromCallbackCode, [oslo, oslo, oslo])
        XCTAssertEqual(fromPromiseCode, [oslo, oslo, oslo])
        XCTAssertEqual(fromAsyncCode, [oslo, oslo, oslo])
    }

    func testEveryStageGetsTheSameErrorFromEveryVersion() async {
        for (city, expected) in [("Atlantis", WeatherError.unknownCity("Atlantis")), ("Pune", .stationOffline("Pune"))] {
            let callbackCallers = [
                CallbackCode.temperatureReport, CallbackCode.temperatureReportFromPromiseCode, CallbackCode.temperatureReportFromAsyncCode,
            ]
            for caller in callbackCallers {
                await XCTAssertThrowsWeatherError(try await report(fromCallbackCode: caller, city: city), expected)
            }
            for promise in [
                PromiseCode.temperatureReportFromCallbackCode(cityNamed: city, weather: weather),
                PromiseCode.temperatureReport(cityNamed: city, weather: weather),
                PromiseCode.temperatureReportFromAsyncCode(cityNamed: city, weather: weather),
            ] {
                await XCTAssertThrowsWeatherError(try await promise.value, expected)
            }
            await XCTAssertThrowsWeatherError(try await AsyncCode.temperatureReportFromCallbackCode(cityNamed: city, weather: weather), expected)
            await XCTAssertThrowsWeatherError(try await AsyncCode.temperatureReportFromPromiseCode(cityNamed: city, weather: weather), expected)
            await XCTAssertThrowsWeatherError(try await AsyncCode.temperatureReport(cityNamed: city, weather: weather), expected)
        }
    }

    func testTheOneFeatureScenarioSaysWhatEachStageGot() async {
        await GradualMigrationTour.oneFeatureThreeWays(weather: weather, transcript: transcript)

        XCTAssertEqual(transcript.lines, [
            "callback code | callbacks: Oslo -3.5 °C | promises: Oslo -3.5 °C | async: Oslo -3.5 °C",
            "promise code  | callbacks: Oslo -3.5 °C | promises: Oslo -3.5 °C | async: Oslo -3.5 °C",
            "async code    | callbacks: Oslo -3.5 °C | promises: Oslo -3.5 °C | async: Oslo -3.5 °C",
            "callback code | callbacks: unknownCity(\"Atlantis\") | promises: unknownCity(\"Atlantis\") | async: unknownCity(\"Atlantis\")",
            "promise code  | callbacks: unknownCity(\"Atlantis\") | promises: unknownCity(\"Atlantis\") | async: unknownCity(\"Atlantis\")",
            "async code    | callbacks: unknownCity(\"Atlantis\") | promises: unknownCity(\"Atlantis\") | async: unknownCity(\"Atlantis\")",
        ])
    }

    // MARK: - Helpers

    /// The report a callback-code caller's completion handler gets for `city`.
    private func report(
        fromCallbackCode caller: (String, LegacyWeatherService, @escaping @Sendable (Swift.Result<TemperatureReport, Error>) -> Void) -> Void,
        city: String = "Oslo"
    ) async throws -> TemperatureReport {
        let result = await withCheckedContinuation { continuation in
            caller(city, weather) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

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

/// Asserts that `expression` throws exactly `expected`.
private func XCTAssertThrowsWeatherError<T>(
    _ expression: @autoclosure () async throws -> T,
    _ expected: WeatherError,
    file: StaticString = #filePath,
    line: UInt = #line
) async {
    do {
        _ = try await expression()
        XCTFail("no error; expected \(expected)", file: file, line: line)
    } catch {
        XCTAssertEqual(error as? WeatherError, expected, file: file, line: line)
    }
}
