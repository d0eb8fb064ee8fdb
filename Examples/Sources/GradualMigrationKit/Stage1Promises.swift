import ExampleSupport
import Vow

// Stage 1: promises over the callbacks.
//
// `vow-migrate LegacyWeatherService.swift --to promise` adds these alternatives next to each
// callback function (here they sit in their own file so the stages read side by side). The callback
// versions stay, so callers move over one at a time.

extension LegacyWeatherService {
    /// Promise-based alternative to `findCity(named:success:failure:)`, added by vow-migrate.
    public func findCity(named name: String) -> Promise<City> {
        Promise { seal in
            findCity(named: name, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    /// Promise-based alternative to `currentTemperature(cityID:completion:)`, added by vow-migrate.
    public func currentTemperature(cityID: Int) -> Promise<Double> {
        Promise { seal in
            currentTemperature(cityID: cityID) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    /// Promise-based alternative to `forecast(cityID:days:completion:)`, added by vow-migrate.
    ///
    /// The legacy function returns a request with `cancel()`, so the alternative takes a token:
    /// cancelling it rejects the promise with `VowError.cancelled` at once and cancels the request.
    public func forecast(cityID: Int, days: Int, cancellation token: CancellationToken? = nil) -> Promise<[Double]> {
        Promise(cancellation: token) { seal in
            let task = forecast(cityID: cityID, days: days) { result in
                seal.resolve(result)
            }
            // Unregistered once the forecast settles, so a long-lived token (a screen's, a
            // session's) does not keep every finished request alive.
            seal.onCancel { task.cancel() }
        }
    }

    /// Promise-based alternative to `whenIdle(completion:)`, added by vow-migrate.
    public func whenIdle() -> Guarantee<Void> {
        Guarantee { resolve in
            whenIdle {
                resolve(())
            }
        }
    }
}

// MARK: - A caller moved to promises

/// Says the temperature in the city named `name`: the nested `findCity` → `currentTemperature`
/// callbacks, rewritten as one flat chain with one place for errors.
///
/// Every handler runs `on: nil`, on the thread that settles the promise before it. PromiseKit (and
/// so Vow) defaults to the main queue, which an app's run loop drains; a command-line program or a
/// test does not drain it, so a chain left on the default would never run its handlers.
///
/// - Returns: A guarantee that settles when the chain has ended, either way, so the caller can wait.
public func sayTemperature(
    inCityNamed name: String,
    weather: LegacyWeatherService,
    transcript: Transcript
) -> Guarantee<Void> {
    whenChainEnds {
        firstly {
            weather.findCity(named: name)
        }.then(on: nil) { city in
            // `map` pairs the city with its temperature, so `done` sees both without nesting.
            weather.currentTemperature(cityID: city.id).map(on: nil) { (city, $0) }
        }.done(on: nil) { city, celsius in
            transcript.say("stage 1   | \(city.name): \(celsius) °C")
        }.catch(on: nil) { error in
            transcript.say("stage 1   | \(name): failed with \(error)")
        }
    }
}

/// Builds a chain that ends in `catch` and returns a guarantee that settles once the chain has
/// ended, fulfilled or caught. An app would not wait; a program that prints, and its tests, do.
func whenChainEnds(_ chain: () -> PMKFinalizer) -> Guarantee<Void> {
    let (chainEnded, endChain) = Guarantee<Void>.pending()
    chain().finally(on: nil) { endChain(()) }
    return chainEnded
}
