import ExampleSupport
import Vow

/// The GradualMigration program, one scenario per stage: the executable runs them all in order
/// and the tests run each and check what it said.
///
/// Every line a scenario says starts with who said it: `stage 1`, `stage 2` or `stage 3` for the
/// caller at that stage, `legacy` for the callback service, `async` for the new async service.
public enum GradualMigrationTour {
    /// Runs every scenario in order.
    public static func run(transcript: Transcript) async {
        let weather = LegacyWeatherService(transcript: transcript)
        let alerts = SevereWeatherAlerts(transcript: transcript)

        transcript.say("== Stage 1: promise wrappers around the callbacks, used by promise chains")
        await promiseChainsOverCallbacks(weather: weather, transcript: transcript)

        transcript.say("")
        transcript.say("== Stage 2: new async code awaiting the promise layer")
        await asyncCodeOverPromises(weather: weather, transcript: transcript)
        _ = await cancellingTheTaskStopsLegacyWork(weather: weather, transcript: transcript)

        transcript.say("")
        transcript.say("== Stage 3: promise code calling new async code")
        await promiseChainsOverAsync(weather: weather, alerts: alerts, transcript: transcript)
        _ = await cancellingTheTokenStopsTheTask(alerts: alerts, transcript: transcript)

        transcript.say("")
        transcript.say("== One feature at all three stages, each calling the others")
        await oneFeatureThreeWays(weather: weather, transcript: transcript)
    }

    // MARK: - Stage 1

    /// A city that works, one whose station is offline, and one that does not exist: the chain's
    /// single `catch` handles both kinds of failure.
    public static func promiseChainsOverCallbacks(weather: LegacyWeatherService, transcript: Transcript) async {
        for city in ["Oslo", "Pune", "Atlantis"] {
            // Waiting for each chain keeps the printout in order; the chains need no waiting to run.
            await sayTemperature(inCityNamed: city, weather: weather, transcript: transcript).value
        }
    }

    // MARK: - Stage 2

    /// A summary that works, then one that fails, caught with a plain `do`/`catch` on the very
    /// error the legacy callback reported.
    public static func asyncCodeOverPromises(weather: LegacyWeatherService, transcript: Transcript) async {
        for city in ["Lima", "Atlantis"] {
            do {
                let summary = try await weatherSummary(cityNamed: city, days: 3, weather: weather)
                transcript.say("stage 2   | \(summary.city): \(summary.celsius) °C now, then \(summary.forecast)")
            } catch WeatherError.unknownCity(let name) {
                transcript.say("stage 2   | no city called \(name)")
            } catch {
                transcript.say("stage 2   | \(city): failed with \(error)")
            }
        }
    }

    /// A Task computing a long forecast is cancelled: the cancellation becomes a token, the token
    /// cancels the legacy `ForecastRequest`, and the legacy loop stops between two days.
    ///
    /// - Returns: The error the Task ended with (a cancellation), or `nil` if it finished.
    public static func cancellingTheTaskStopsLegacyWork(weather: LegacyWeatherService, transcript: Transcript) async -> (any Error)? {
        let oslo = City(id: 1, name: "Oslo")
        let task = Task {
            try await forecast(for: oslo, days: 10, weather: weather)
        }
        // Cancel once the legacy work is under way, as a user who gives up on a slow screen would.
        await transcript.waitUntilSaid(startingWith: "legacy    | forecast for Oslo: computing")
        try? await Task.sleep(for: .milliseconds(50))
        transcript.say("stage 2   | cancelling the Task")
        task.cancel()
        let outcome = await task.result
        // The Task ends at once; the legacy loop notices its cancelled request a moment later.
        // Waiting for the legacy queue only keeps the printout in order.
        await weather.whenIdle().value
        switch outcome {
        case .success(let forecast):
            transcript.say("stage 2   | the Task finished anyway: \(forecast)")
            return nil
        case .failure(let error):
            // `CancellationError` or `VowError.cancelled`, whichever the Task saw first: both are
            // cancellations, and `isCancelled` says so for either.
            transcript.say("stage 2   | the Task ended: \(error.isCancelled ? "cancelled" : "failed with \(error)")")
            return error
        }
    }

    // MARK: - Stage 3

    /// Promise chains calling the async alerts service: one answer, one thrown error.
    public static func promiseChainsOverAsync(
        weather: LegacyWeatherService,
        alerts: SevereWeatherAlerts,
        transcript: Transcript
    ) async {
        for city in ["Oslo", "Lima"] {
            await sayAlerts(inCityNamed: city, weather: weather, alerts: alerts, transcript: transcript).value
        }
    }

    /// Promise code cancels async work through a token: the promise rejects at once, and the Task
    /// behind it is cancelled and stops at its next `await`.
    ///
    /// - Returns: The error the promise was rejected with (`VowError.cancelled`), or `nil` if it
    ///   was fulfilled.
    public static func cancellingTheTokenStopsTheTask(alerts: SevereWeatherAlerts, transcript: Transcript) async -> (any Error)? {
        let source = CancellationTokenSource()
        let promise = alerts.alerts(for: City(id: 1, name: "Oslo"), cancellation: source.token)
        // `catch` skips cancellations by default (they are not failures to show a user); ask for
        // them explicitly to see this one.
        promise.catch(on: nil, policy: .allErrors) { error in
            transcript.say("stage 3   | the promise was rejected at once: \(error)")
        }
        try? await Task.sleep(for: .milliseconds(50))
        transcript.say("stage 3   | cancelling the token")
        source.cancel()
        // The async work sees `CancellationError` at its next `await`; wait for it to say so.
        await transcript.waitUntilSaid(startingWith: "async     | alerts for Oslo: stopped")
        return promise.error
    }

    // MARK: - One feature, three ways

    /// The temperature report written as callbacks, as promises and as async code: each caller
    /// asks each version, for a city that works and for one that does not exist.
    public static func oneFeatureThreeWays(weather: LegacyWeatherService, transcript: Transcript) async {
        for city in ["Oslo", "Atlantis"] {
            let fromCallbackCode = [
                await outcome(ofCallback: { CallbackCode.temperatureReport(cityNamed: city, weather: weather, completion: $0) }),
                await outcome(ofCallback: { CallbackCode.temperatureReportFromPromiseCode(cityNamed: city, weather: weather, completion: $0) }),
                await outcome(ofCallback: { CallbackCode.temperatureReportFromAsyncCode(cityNamed: city, weather: weather, completion: $0) }),
            ]
            say("callback code", fromCallbackCode, transcript: transcript)

            let fromPromiseCode = [
                await outcome(of: PromiseCode.temperatureReportFromCallbackCode(cityNamed: city, weather: weather)),
                await outcome(of: PromiseCode.temperatureReport(cityNamed: city, weather: weather)),
                await outcome(of: PromiseCode.temperatureReportFromAsyncCode(cityNamed: city, weather: weather)),
            ]
            say("promise code", fromPromiseCode, transcript: transcript)

            let fromAsyncCode = [
                await outcome(ofAsync: { try await AsyncCode.temperatureReportFromCallbackCode(cityNamed: city, weather: weather) }),
                await outcome(ofAsync: { try await AsyncCode.temperatureReportFromPromiseCode(cityNamed: city, weather: weather) }),
                await outcome(ofAsync: { try await AsyncCode.temperatureReport(cityNamed: city, weather: weather) }),
            ]
            say("async code", fromAsyncCode, transcript: transcript)
        }
    }

    /// Says what one stage's caller got from the callback, promise and async versions, in order.
    private static func say(_ caller: String, _ outcomes: [String], transcript: Transcript) {
        let versions = zip(["callbacks", "promises", "async"], outcomes).map { "\($0): \($1)" }
        let column = caller + String(repeating: " ", count: max(0, 13 - caller.count))
        transcript.say("\(column) | " + versions.joined(separator: " | "))
    }

    /// What a completion handler was called with, as text.
    private static func outcome(
        ofCallback start: (@escaping @Sendable (Swift.Result<TemperatureReport, Error>) -> Void) -> Void
    ) async -> String {
        let result = await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
        return describe(result)
    }

    /// What a promise settled with, as text.
    private static func outcome(of promise: Promise<TemperatureReport>) async -> String {
        await outcome(ofAsync: { try await promise.value })
    }

    /// What an async call returned or threw, as text.
    private static func outcome(ofAsync call: () async throws -> TemperatureReport) async -> String {
        do {
            return describe(.success(try await call()))
        } catch {
            return describe(.failure(error))
        }
    }

    private static func describe(_ result: Swift.Result<TemperatureReport, Error>) -> String {
        switch result {
        case .success(let report): "\(report)"
        case .failure(let error): "\(error)"
        }
    }
}
