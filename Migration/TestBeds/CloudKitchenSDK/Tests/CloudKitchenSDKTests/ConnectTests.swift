import CloudKitchenSDK
import Foundation
import XCTest

/// `CloudKitchen.connect`: configuration checks, the handshake and its proxy challenge.
final class ConnectTests: SDKTestCase {
    private final class ChallengeDelegate: CloudKitchenDelegate {
        var challenges: [Challenge] = []
        var expired = 0
        let answer: Disposition

        init(answer: Disposition) {
            self.answer = answer
        }

        func cloudKitchen(_ kitchen: CloudKitchen, didReceive challenge: Challenge, completionHandler: @escaping (Disposition) -> Void) {
            challenges.append(challenge)
            DispatchQueue.global().async {
                completionHandler(self.answer)
            }
        }

        func cloudKitchenSessionDidExpire(_ kitchen: CloudKitchen) {
            expired += 1
        }
    }

    private func proxyTransport() -> FakeTransport {
        let proxied = FakeTransport()
        proxied.stub(.get, "handshake", .json(407, "{}", headers: ["Proxy-Authenticate": "corp-proxy"]))
        proxied.stub(.get, "handshake", .json(200, "{}"))
        return proxied
    }

    func testConnectingSendsTheAPIKeyWithTheHandshake() {
        XCTAssertNotNil(sdk)
        XCTAssertEqual(transport.requests.first?.path, "handshake")
        XCTAssertEqual(transport.requests.first?.headers["X-Api-Key"], "test-key")
    }

    func testConnectingRestoresTheSavedSession() {
        XCTAssertEqual(sdk.session.isSignedIn, true)
    }

    func testAnEmptyAPIKeyFailsBeforeAnythingIsSent() {
        let fresh = FakeTransport()
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(apiKey: ""), transport: fresh, completion: done)
        }
        guard case .failure(.invalidArgument(let reason))? = result else {
            return XCTFail("expected invalidArgument, got \(String(describing: result))")
        }
        XCTAssertEqual(reason, "apiKey is empty")
        XCTAssertTrue(fresh.requests.isEmpty)
    }

    func testAFailedHandshakeIsReportedWithItsStatus() {
        let failing = FakeTransport()
        failing.stub(.get, "handshake", .json(503, #"{"error":"maintenance"}"#))
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: failing) { result in
                done(result)
            }
        }
        guard case .failure(let error)? = result else { return XCTFail("connected") }
        XCTAssertEqual(error, .http(status: 503, message: "maintenance"))
    }

    func testAProxyChallengeIsAnsweredByTheAuthenticationClosure() {
        let proxied = proxyTransport()
        var seen: [Challenge] = []
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: proxied, authentication: { challenge, answer in
                seen.append(challenge)
                answer(.useCredential(user: "ada", password: "secret"))
            }, completion: done)
        }
        XCTAssertNotNil(try? result?.get())
        XCTAssertEqual(seen.map(\.realm), ["corp-proxy"])
        XCTAssertEqual(proxied.requests.count, 2)
        XCTAssertEqual(proxied.requests.last?.headers["Proxy-Authorization"], "Basic " + Data("ada:secret".utf8).base64EncodedString())
    }

    func testCancellingTheChallengeFailsTheConnection() {
        let proxied = proxyTransport()
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: proxied, authentication: { _, answer in
                answer(.cancelAuthenticationChallenge)
            }) { result in
                done(result)
            }
        }
        guard case .failure(let error)? = result else { return XCTFail("connected") }
        XCTAssertEqual(error, .cancelled)
        XCTAssertEqual(proxied.requests.count, 1)
    }

    func testWithoutAnAuthenticationClosureTheDelegateAnswersTheChallenge() {
        let proxied = proxyTransport()
        let delegate = ChallengeDelegate(answer: .useCredential(user: "bob", password: "pw"))
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: proxied, delegate: delegate, completion: done)
        }
        XCTAssertNotNil(try? result?.get())
        XCTAssertEqual(delegate.challenges.count, 1)
        XCTAssertEqual(delegate.challenges.first?.realm, "corp-proxy")
    }

    func testWithNeitherClosureNorDelegateAChallengeEndsTheConnection() {
        let proxied = proxyTransport()
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: proxied, tokenStore: InMemoryTokenStore(), completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("connected") }
        XCTAssertEqual(error, .cancelled)
    }

    func testRejectedProxyCredentialsAreNotRetriedForever() {
        let proxied = FakeTransport()
        proxied.stub(.get, "handshake", .json(407, "{}"))
        let result: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: proxied, authentication: { _, answer in
                answer(.useCredential(user: "ada", password: "wrong"))
            }, completion: done)
        }
        guard case .failure(let error)? = result else { return XCTFail("connected") }
        XCTAssertEqual(error, .invalidCredentials)
        XCTAssertEqual(proxied.requests.count, 2)
    }

    func testAChallengeHandlerCanBeSetAndClearedLater() {
        XCTAssertFalse(sdk.hasChallengeHandler)
        sdk.setChallengeHandler(authentication: { _, answer in answer(.performDefaultHandling) })
        XCTAssertTrue(sdk.hasChallengeHandler)
        sdk.setChallengeHandler()
        XCTAssertFalse(sdk.hasChallengeHandler)
    }

    func testTheDelegateHearsWhenTheSessionCannotBeRefreshed() {
        let delegate = ChallengeDelegate(answer: .performDefaultHandling)
        sdk.delegate = delegate
        tokenStore = InMemoryTokenStore(token: AccessToken(value: "old", refreshToken: "bad", expiresAt: .distantPast))
        let expiring = FakeTransport()
        expiring.stub(.get, "handshake", .json(200, "{}"))
        expiring.stub(.post, "auth/refresh", .json(401, "{}"))
        let client: Result<CloudKitchen, SDKError>? = waitFor { done in
            CloudKitchen.connect(configuration: makeConfiguration(), transport: expiring, tokenStore: tokenStore, delegate: delegate, completion: done)
        }
        guard let connected = try? client?.get() else { return XCTFail("not connected") }
        let account: Error?? = waitFor { done in
            connected.accounts.account { _, error in done(error) }
        }
        XCTAssertEqual(account??.localizedDescription, SDKError.notAuthenticated.localizedDescription)
        XCTAssertEqual(delegate.expired, 1)
        XCTAssertFalse(connected.session.isSignedIn)
    }
}
