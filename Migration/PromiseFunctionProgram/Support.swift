import Dispatch
import Vow

/// A service answering on its own queue, failing where the scenario says.
enum Failure: Error {
    case failed(String)
}

let serviceQueue = DispatchQueue(label: "services")

/// Marks the main queue: on Linux, `dispatchMain()` serves it from a thread that is not the main thread.
let mainQueueKey = DispatchSpecificKey<Bool>()

func log(_ text: String) {
    print("[\(DispatchQueue.getSpecific(key: mainQueueKey) != nil ? "main" : "background")] \(text)")
}

func fetch(_ name: String, fails: Bool) -> Promise<String> {
    log("fetch(\(name)) called")
    return Promise { seal in
        serviceQueue.async { fails ? seal.reject(Failure.failed(name)) : seal.fulfill("v-\(name)") }
    }
}
