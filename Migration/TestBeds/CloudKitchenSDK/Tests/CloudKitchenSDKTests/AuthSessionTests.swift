import CloudKitchenSDK
import Foundation
import XCTest

/// Signing in and out, and the token refresh shared by concurrent requests.
final class AuthSessionTests: SDKTestCase {
    private final class SessionEvents: AuthSessionDelegate {
        var refreshed = 0
        var expired: [SDKError] = []

        func sessionDidRefreshToken(_ session: AuthSession) {
            refreshed += 1
        }

        func sessionDidExpire(_ session: AuthSession, error: SDKError) {
            expired.append(error)
        }
    }

    private func expiredSession(now: Date = Date()) -> AuthSession {
        let store = InMemoryTokenStore(token: AccessToken(value: "old", refreshToken: "refresh-1", expiresAt: now.addingTimeInterval(-10)))
        let session = AuthSession(transport: transport, store: store)
        let restored: Bool? = waitFor { done in session.restore(completion: done) }
        XCTAssertEqual(restored, true)
        return session
    }

    func testSigningInReturnsTheAccountAndSavesTheToken() {
        transport.stub(.post, "auth/sign-in", .json(200, Samples.signIn))
        tokenStore = InMemoryTokenStore()
        let session = AuthSession(transport: transport, store: tokenStore)
        let result: Result<Account, SDKError>? = waitFor { done in
            session.signIn(with: Credentials(email: "ada@example.com", password: "pw"), completion: done)
        }
        XCTAssertEqual(try result?.get().displayName, "Ada")
        XCTAssertEqual(tokenStore.storedToken?.value, "access-1")
        XCTAssertTrue(session.isSignedIn)
    }

    func testWrongCredentialsAreReportedAsSuch() {
        transport.stub(.post, "auth/sign-in", .json(401, "{}"))
        let result: (Account?, Error?)? = waitFor { done in
            sdk.signIn(email: "ada@example.com", password: "nope") { account, error in
                done((account, error))
            }
        }
        XCTAssertNil(result?.0)
        XCTAssertEqual(result?.1 as? SDKError, .invalidCredentials)
    }

    func testAnEmptyPasswordIsRefusedWithoutARequest() {
        let before = transport.requests.count
        let result: (Account?, Error?)? = waitFor { done in
            sdk.signIn(email: "ada@example.com", password: "") { done(($0, $1)) }
        }
        XCTAssertEqual(result?.1 as? SDKError, .invalidCredentials)
        XCTAssertEqual(transport.requests.count, before)
    }

    func testSigningInThroughTheFacadeGivesTheAccount() {
        transport.stub(.post, "auth/sign-in", .json(200, Samples.signIn))
        let account: Account?? = waitFor { done in
            sdk.signIn(email: "ada@example.com", password: "pw") { account, _ in done(account) }
        }
        XCTAssertEqual(account??.favoriteKitchenIDs, ["k1"])
    }

    func testSigningOutForgetsTheTokenAndTellsTheServer() {
        transport.stub(.post, "auth/sign-out", .json(204, ""))
        let error: Error?? = waitFor { done in sdk.session.signOut(completion: done) }
        XCTAssertNil(error ?? nil)
        XCTAssertFalse(sdk.session.isSignedIn)
        XCTAssertNil(tokenStore.storedToken)
        XCTAssertEqual(transport.requests.last?.headers["Authorization"], "Bearer access-1")
    }

    func testSigningOutWithoutAHandlerStillSignsOut() {
        transport.stub(.post, "auth/sign-out", .json(204, ""))
        sdk.session.signOut()
        XCTAssertFalse(sdk.session.isSignedIn)
    }

    func testAFailedTokenSaveIsReportedBySignOut() {
        tokenStore.failSaves = true
        let error: Error?? = waitFor { done in
            sdk.signOut { error in done(error) }
        }
        XCTAssertEqual((error ?? nil) as? SDKError, .invalidArgument("the token store is locked"))
    }

    func testAValidTokenIsHandedOutWithoutARequest() {
        let before = transport.requests.count
        let result: Result<AccessToken, SDKError>? = waitFor { done in sdk.session.validToken(completion: done) }
        XCTAssertEqual(try result?.get().value, "access-1")
        XCTAssertEqual(transport.requests.count, before)
    }

    func testConcurrentRequestsForAnExpiredTokenShareOneRefresh() {
        transport.stub(.post, "auth/refresh", .json(200, Samples.refreshedToken))
        let session = expiredSession()
        let events = SessionEvents()
        session.delegate = events
        let all = expectation(description: "three tokens")
        all.expectedFulfillmentCount = 3
        var values: [String] = []
        let lock = NSLock()
        for _ in 0..<3 {
            session.validToken { result in
                lock.lock()
                values.append((try? result.get().value) ?? "failed")
                lock.unlock()
                all.fulfill()
            }
        }
        wait(for: [all], timeout: timeout)
        XCTAssertEqual(values, ["access-2", "access-2", "access-2"])
        XCTAssertEqual(transport.count(of: "auth/refresh"), 1)
        XCTAssertEqual(events.refreshed, 1)
    }

    func testARejectedRefreshSignsOutAndTellsTheDelegate() {
        transport.stub(.post, "auth/refresh", .json(401, "{}"))
        let session = expiredSession()
        let events = SessionEvents()
        session.delegate = events
        let result: Result<AccessToken, SDKError>? = waitFor { done in session.validToken(completion: done) }
        guard case .failure(let error)? = result else { return XCTFail("refreshed") }
        XCTAssertEqual(error, .notAuthenticated)
        XCTAssertEqual(events.expired, [.notAuthenticated])
        XCTAssertFalse(session.isSignedIn)
    }

    func testAWithoutTokenRequestFailsAsNotAuthenticated() {
        let session = AuthSession(transport: transport, store: InMemoryTokenStore())
        let result: Result<AccessToken, SDKError>? = waitFor { done in
            session.validToken { done($0) }
        }
        guard case .failure(let error)? = result else { return XCTFail("got a token") }
        XCTAssertEqual(error, .notAuthenticated)
    }

    func testTheTokenStoreWorksThroughItsProtocol() {
        let store: TokenStore = InMemoryTokenStore()
        let saved: Error?? = waitFor { done in
            store.saveToken(AccessToken(value: "v", refreshToken: "r", expiresAt: .distantFuture), completion: done)
        }
        XCTAssertNil(saved ?? nil)
        let loaded: AccessToken?? = waitFor { done in store.loadToken(completion: done) }
        XCTAssertEqual(loaded??.value, "v")
    }

    func testAnExpiringTokenCountsAsExpired() {
        let now = Date()
        let token = AccessToken(value: "v", refreshToken: "r", expiresAt: now.addingTimeInterval(20))
        XCTAssertTrue(token.isExpired(now: now))
        XCTAssertFalse(token.isExpired(margin: 5, now: now))
    }
}
