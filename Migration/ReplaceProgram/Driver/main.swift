import Dispatch
import Foundation
#if REPLACED_PROMISE
import Vow
#endif

// Calls each function of Shop in every scenario and prints the effects; built once against the
// original (completion handlers), once against `--replace --to promise` (compiled with
// REPLACED_PROMISE) and once against `--replace --to async` (REPLACED_ASYNC).

let shop = Shop()

func finish(_ text: String) {
    Trace.shared.record(text, final: true)
}

func buy() {
    #if REPLACED_PROMISE
    shop.buy(user: "ada").done(on: nil) { finish("bought \($0.order.id): \($0.note)") }.catch(on: nil, policy: .allErrors) { finish("buy failed: \($0)") }
    #elseif REPLACED_ASYNC
    Task {
        do { let receipt = try await shop.buy(user: "ada"); finish("bought \(receipt.order.id): \(receipt.note)") } catch { finish("buy failed: \(error)") }
    }
    #else
    shop.buy(user: "ada") { result in
        switch result {
        case .success(let receipt): finish("bought \(receipt.order.id): \(receipt.note)")
        case .failure(let error): finish("buy failed: \(error)")
        }
    }
    #endif
}

func quote() {
    #if REPLACED_PROMISE
    shop.quote().done(on: nil) { finish("quote \($0)") }.catch(on: nil, policy: .allErrors) { finish("quote failed: \($0)") }
    #elseif REPLACED_ASYNC
    Task {
        do { finish("quote \(try await shop.quote())") } catch { finish("quote failed: \(error)") }
    }
    #else
    shop.quote { result in
        switch result {
        case .success(let total): finish("quote \(total)")
        case .failure(let error): finish("quote failed: \(error)")
        }
    }
    #endif
}

func waitTwice() {
    #if REPLACED_PROMISE
    shop.waitTwice().done(on: nil) { finish("waited \($0)") }
    #elseif REPLACED_ASYNC
    Task { finish("waited \(await shop.waitTwice())") }
    #else
    shop.waitTwice { finish("waited \($0)") }
    #endif
}

serviceQueue.setSpecific(key: serviceQueueKey, value: true)
let scenarios: [(String, Set<String>, () -> Void)] = [
    ("buy", [], buy), ("buy, cart fails", ["cart"], buy), ("buy, price fails", ["price"], buy),
    ("buy, place fails", ["place"], buy), ("buy, too expensive", ["expensive"], buy), ("buy, charge fails", ["charge"], buy),
    ("quote", [], quote), ("quote, price fails", ["price"], quote), ("quote, queue empty", ["queue"], quote),
    ("waitTwice", [], waitTwice),
]
for (name, failing, run) in scenarios {
    Script.shared.set(failing)
    serviceQueue.suspend()
    run()
    serviceQueue.resume()
    Trace.shared.waitForFinalEffect()
    serviceQueue.sync {}
    print("== \(name)")
    for line in Trace.shared.take() { print(line) }
}
