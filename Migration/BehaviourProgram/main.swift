import Dispatch
import Foundation
import Vow

// Runs every scenario and prints the effects in order, with the thread of each; the behaviour
// test compares this output before and after migration.
DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
// A cauterized failure is one scenario's final effect.
conf.logHandler = { event in
    if case .cauterized(let error) = event { Trace.shared.record("cauterized: \(error)", final: true) }
}
let flows = Flows()
let places = Places()
let fanOuts = FanOuts()
let scenarios: [(name: String, failing: Set<String>, run: @Sendable () -> Void)] = [
    ("reload", [], { flows.reload() }),
    ("reload, network declined", ["network"], { flows.reload() }),
    ("reload, system declined", ["system"], { flows.reload() }),
    ("load", [], { flows.load("ada") }),
    ("load, login fails", ["login"], { flows.load("ada") }),
    ("load, profile fails", ["profile"], { flows.load("ada") }),
    ("sync", [], { flows.sync("bob") }),
    ("sync, login fails", ["login"], { flows.sync("bob") }),
    ("sync, profile fails", ["profile"], { flows.sync("bob") }),
    ("sync, save fails", ["save"], { flows.sync("bob") }),
    ("refresh", [], { flows.refresh() }),
    ("refresh, login fails", ["login"], { flows.refresh() }),
    ("refresh, profile fails", ["profile"], { flows.refresh() }),
    ("kick", [], { flows.kick() }),
    ("kick, network declined", ["network"], { flows.kick() }),
    ("check", [], { flows.check() }),
    ("check, network declined", ["network"], { flows.check() }),
    ("check, system declined", ["system"], { flows.check() }),
    ("chained", [], { flows.chained("eve") }),
    ("chained, login fails", ["login"], { flows.chained("eve") }),
    ("chained, profile fails", ["profile"], { flows.chained("eve") }),
    ("recovering", [], { flows.recovering("ann") }),
    ("recovering, login fails", ["login"], { flows.recovering("ann") }),
    ("recovering, profile fails", ["profile"], { flows.recovering("ann") }),
    ("spinning", [], { flows.spinning("sam") }),
    ("spinning, login fails", ["login"], { flows.spinning("sam") }),
    ("spinning, profile fails", ["profile"], { flows.spinning("sam") }),
    ("counting", [], { flows.counting("42") }),
    ("counting, not a number", [], { flows.counting("eve") }),
    ("counting, login fails", ["login"], { flows.counting("42") }),
    ("both", [], { flows.both("kim") }),
    ("both, login fails", ["login"], { flows.both("kim") }),
    ("both, profile fails", ["profile"], { flows.both("kim") }),
    ("settling", [], { flows.settling("lee") }),
    ("settling, login fails", ["login"], { flows.settling("lee") }),
    ("settling, profile fails", ["profile"], { flows.settling("lee") }),
    ("cauterizing", [], { flows.cauterizing("max") }),
    ("cauterizing, login fails", ["login"], { flows.cauterizing("max") }),
    ("nesting", [], { flows.nesting("ned") }),
    ("nesting, login fails", ["login"], { flows.nesting("ned") }),
    ("nesting, profile fails", ["profile"], { flows.nesting("ned") }),
    ("hopping", [], { flows.hopping("joe") }),
    ("hopping, login fails", ["login"], { flows.hopping("joe") }),
    ("hopping, profile fails", ["profile"], { flows.hopping("joe") }),
    ("tap", [], { places.button.tap() }),
    ("tap, login fails", ["login"], { places.button.tap() }),
    ("tap, profile fails", ["profile"], { places.button.tap() }),
    ("observer", [], { places.user = "uma" }),
    ("observer, login fails", ["login"], { places.user = "uma" }),
    ("hop", [], { places.hop("hal") }),
    ("hop, login fails", ["login"], { places.hop("hal") }),
    ("guest", [], { places.greet(nil) }),
    ("greeted", [], { places.greet("vic") }),
    ("spawn", [], { places.spawn("wes") }),
    ("spawn, login fails", ["login"], { places.spawn("wes") }),
    ("peek", [], { places.peek() }),
    ("peek, cache miss", ["cache"], { places.peek() }),
    ("peek, lookup fails", ["lookup"], { places.peek() }),
    ("scoreAll", [], { fanOuts.scoreAll(["ada", "bob", "cy"]) }),
    ("scoreAll, one fails", ["score-bob"], { fanOuts.scoreAll(["ada", "bob", "cy"]) }),
    ("scoreAll, empty", [], { fanOuts.scoreAll([]) }),
    ("fetchAvatars", [], { fanOuts.fetchAvatars(["anna", "bob", "cy"]) }),
    ("fetchAvatars, one fails", ["avatar-bob"], { fanOuts.fetchAvatars(["anna", "bob", "cy"]) }),
    ("fetchAvatars, empty", [], { fanOuts.fetchAvatars([]) }),
    ("pingAll", [], { fanOuts.pingAll(["ada", "bob", "cy"]) }),
    ("pingAll, one fails", ["ping-cy"], { fanOuts.pingAll(["ada", "bob", "cy"]) }),
    ("pingAll, empty", [], { fanOuts.pingAll([]) }),
    ("warmUp", [], { fanOuts.warmUp(["ada", "bob", "cy"]) }),
    ("warmUp, one fails", ["ping-bob"], { fanOuts.warmUp(["ada", "bob", "cy"]) }),
    ("warmUp, empty", [], { fanOuts.warmUp([]) }),
    ("scoreEach", [], { fanOuts.scoreEach(["ada", "bob", "cy"]) }),
    ("scoreEach, one fails", ["score-ada"], { fanOuts.scoreEach(["ada", "bob", "cy"]) }),
]

Thread.detachNewThread {
    for scenario in scenarios {
        Script.shared.set(scenario.failing)
        // Services answer only once the scenario's synchronous part has returned, as a real
        // service's network round trip would: no race with the code after a call.
        serviceQueue.suspend()
        workQueue.suspend()
        scenario.run()
        workQueue.resume()
        serviceQueue.resume()
        Trace.shared.waitForFinalEffect()
        // Anything a scenario did after its final effect would show up in the next one.
        workQueue.sync {}
        serviceQueue.sync {}
        DispatchQueue.main.sync {}
        print("== \(scenario.name)")
        for line in Trace.shared.take() { print(line) }
    }
    exit(0)
}
dispatchMain()
