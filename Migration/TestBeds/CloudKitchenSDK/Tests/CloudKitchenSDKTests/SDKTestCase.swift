import CloudKitchenSDK
import Foundation
import XCTest

/// Canned platform answers, as the staging server sends them.
enum Samples {
    static let token = #"{"value":"access-1","refresh_token":"refresh-1","expires_at":"2099-01-01T00:00:00Z"}"#
    static let refreshedToken = #"{"value":"access-2","refresh_token":"refresh-2","expires_at":"2099-01-01T00:00:00Z"}"#
    static let account = #"{"id":"u1","email":"ada@example.com","display_name":"Ada","favorite_kitchen_ids":["k1"]}"#
    static let signIn = #"{"token":\#(token),"account":\#(account)}"#

    static func kitchen(_ id: String, name: String, open: Bool = true, latitude: Double = 52.52, longitude: Double = 13.40, rating: Double = 4.5) -> String {
        #"{"id":"\#(id)","name":"\#(name)","cuisine":"ramen","is_open":\#(open),"rating":\#(rating),"location":{"latitude":\#(latitude),"longitude":\#(longitude)}}"#
    }

    static let kitchens = "[" + [
        kitchen("k2", name: "Far Noodles", latitude: 52.60, longitude: 13.50, rating: 4.9),
        kitchen("k1", name: "Near Ramen", latitude: 52.521, longitude: 13.401, rating: 4.1),
    ].joined(separator: ",") + "]"

    static func item(_ id: String, price: Int, available: Bool = true) -> String {
        #"{"id":"\#(id)","kitchen_id":"k1","name":"Dish \#(id)","price_cents":\#(price),"is_available":\#(available),"tags":["hot"]}"#
    }

    static let menu = #"{"kitchen_id":"k1","updated_at":"2026-03-01T12:00:00Z","sections":[{"title":"Mains","items":[\#(item("m1", price: 1200, available: false)),\#(item("m2", price: 950))]},{"title":"Drinks","items":[\#(item("d1", price: 300))]}]}"#

    static func order(_ id: String, status: String = "received", total: Int = 2400) -> String {
        #"{"id":"\#(id)","kitchen_id":"k1","lines":[{"item_id":"m2","quantity":2}],"status":"\#(status)","total_cents":\#(total)}"#
    }

    /// The first bytes of a JPEG, then filler.
    static func jpeg(bytes: Int) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: max(0, bytes - 4)))
    }
}

/// Connects an SDK to a fake platform before each test, signed in with a valid token.
class SDKTestCase: XCTestCase {
    var transport: FakeTransport!
    var tokenStore: InMemoryTokenStore!
    var sdk: CloudKitchen!
    let timeout: TimeInterval = 2

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        tokenStore = InMemoryTokenStore(token: AccessToken(value: "access-1", refreshToken: "refresh-1", expiresAt: Date(timeIntervalSinceNow: 3600)))
        transport.stub(.get, "handshake", .json(200, "{}"))
        sdk = connectSDK()
    }

    override func tearDown() {
        sdk = nil
        transport = nil
        tokenStore = nil
        super.tearDown()
    }

    func makeConfiguration(apiKey: String = "test-key", maximumAttempts: Int = 3) -> Configuration {
        Configuration(apiKey: apiKey, maximumAttempts: maximumAttempts, cacheLifetime: 60)
    }

    /// `CloudKitchen.connect` with the fake transport, waiting for its answer.
    func connectSDK(file: StaticString = #filePath, line: UInt = #line) -> CloudKitchen? {
        let connected = expectation(description: "connected")
        var client: CloudKitchen?
        CloudKitchen.connect(configuration: makeConfiguration(), transport: transport, tokenStore: tokenStore) { result in
            client = try? result.get()
            connected.fulfill()
        }
        wait(for: [connected], timeout: timeout)
        XCTAssertNotNil(client, "connect failed", file: file, line: line)
        return client
    }

    /// Waits until `condition` holds (or the timeout passes), for calls made without a handler:
    /// nothing tells the test when their work is done, so it looks at the work's effects.
    func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Waits for a callback that hands one value over.
    func waitFor<T>(_ description: String = #function, _ start: (@escaping (T) -> Void) -> Void) -> T? {
        let done = expectation(description: description)
        var value: T?
        start { received in
            value = received
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return value
    }
}
