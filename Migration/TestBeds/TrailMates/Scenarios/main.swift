import Dispatch
import Foundation

// Drives TrailMates through every scenario and prints the effects in order, each with the kind
// of queue it happened on. AppTestBedTests compares this output before and after migration.

DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
NetworkSession.shared.install { FakeBackend.shared.answer($0) }

let login = "POST /login?email=ada@trail.app"
let trailsPage1 = "GET /trails?page=1"
let trailsPage2 = "GET /trails?page=2"

var scenarios: [Scenario] = []

// MARK: - Signing in

scenarios += [
    Scenario(name: "sign in", signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "login.status") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, wrong password, then right", answers: [login: [.status(403, body: ""), .status(200, body: "{\"token\":\"tok-2\",\"userID\":1,\"expiresIn\":60}")]], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() },
                Step(until: "login.status") { tapAlert("Try Again") }]
    },
    Scenario(name: "sign in, account locked", answers: [login: [.status(423, body: "")]], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, offline", answers: [login: offline], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, profile fails", answers: ["GET /me": serverError], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, profile not found", answers: ["GET /me": notFound], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, device registration fails", answers: ["POST /me/devices": serverError], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "login.status") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in, empty password", signedIn: false) {
        let screen = loginScreen(password: "")
        return [Step(until: "present alert") { screen.signInButton.sendActions() }]
    },
    Scenario(name: "sign in with a code", signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "login.status") { screen.signInWithCode("1234", email: "ada@trail.app") }]
    },
    Scenario(name: "sign in with a code, wrong code", answers: [login: [.status(403, body: "")]], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInWithCode("9999", email: "ada@trail.app") }]
    },
    Scenario(name: "sign in with a code, profile fails", answers: ["GET /me": serverError], signedIn: false) {
        let screen = loginScreen()
        return [Step(until: "present alert") { screen.signInWithCode("1234", email: "ada@trail.app") }]
    },
    Scenario(name: "demo account", signedIn: false) {
        let model = LoginViewModel()
        model.onChange = { state in
            if case .signedIn(let user) = state { Effects.shared.record("signed in as \(user.handle)") } else { Effects.shared.record("login state \(state)") }
        }
        return [Step(until: "signed in as") { model.signInAsDemoUser() }]
    },
]

// MARK: - Starting the app

func appStart(_ name: String, answers: [String: [ServerAnswer]] = [:], signedIn: Bool, inMemory: Bool, until: String) -> Scenario {
    Scenario(name: name, answers: answers, signedIn: signedIn, sessionInMemory: inMemory) {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        return [Step(until: until) { coordinator.start() }]
    }
}

scenarios += [
    // Nobody signed in: the session store answers (nil, nil) at once, on the caller's queue.
    appStart("start, nobody signed in", signedIn: false, inMemory: false, until: "present Sign In"),
    // A session in memory: handed back at once, then the profile.
    appStart("start, session in memory", signedIn: true, inMemory: true, until: "trails shows"),
    appStart("start, session refreshed", signedIn: true, inMemory: false, until: "trails shows"),
    appStart("start, refresh fails", answers: ["POST /session/refresh": serverError], signedIn: true, inMemory: false, until: "present Sign In"),
    appStart("start, profile fails", answers: ["GET /me": serverError], signedIn: true, inMemory: true, until: "present Sign In"),
    appStart("start, first trail page fails", answers: [trailsPage1: serverError], signedIn: true, inMemory: true, until: "trails.status"),
    Scenario(name: "session expires, renewed", answers: ["GET /trails/9": [.status(401, body: "")]]) {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        return [Step(until: "trails shows") { coordinator.start() },
                Step(until: "session renewed") {
                    APIClient.shared.request(.trail(id: 9), as: Trail.self) { _ in }
                }]
    },
    Scenario(name: "session expires, renewal fails", answers: ["GET /trails/9": [.status(401, body: "")], "POST /session/refresh": serverError]) {
        let coordinator = AppCoordinator(window: ViewController(title: "window"))
        return [Step(until: "trails shows") { coordinator.start() },
                Step(until: "present Sign In") {
                    APIClient.shared.request(.trail(id: 9), as: Trail.self) { _ in }
                }]
    },
]

// MARK: - Trails

scenarios += [
    Scenario(name: "trails, one condition fails", answers: ["GET /trails/2/conditions": serverError]) {
        let list = TrailListViewController()
        _ = NavigationController(root: list)
        return [Step(until: "trails shows") {}]
    },
    Scenario(name: "trails, more") {
        let list = TrailListViewController()
        _ = NavigationController(root: list)
        return [Step(until: "trails shows") {},
                Step(until: "trails shows") { list.moreButton.sendActions() }]
    },
    Scenario(name: "trails, more fails", answers: [trailsPage2: offline]) {
        let list = TrailListViewController()
        _ = NavigationController(root: list)
        return [Step(until: "trails shows") {},
                Step(until: "trails.status") { list.moreButton.sendActions() }]
    },
    // Typing again cancels the search in flight; its `.cancelled` answer is dropped.
    Scenario(name: "search as you type") {
        let list = TrailListViewController()
        list.loadViewIfNeeded()
        return [Step(until: "search shows") {
            list.userTyped("E")
            list.userTyped("Ea")
            list.userTyped("Eag")
        }]
    },
    Scenario(name: "search fails", answers: ["GET /trails/search?q=Lake": serverError]) {
        let list = TrailListViewController()
        list.loadViewIfNeeded()
        return [Step(until: "trails.status") { list.userTyped("Lake") }]
    },
    Scenario(name: "trail details") {
        let detail = trailDetail(1)
        return [Step(until: "trail.elevation") {},
                Step(until: "trail.comments") { detail.loadComments() }]
    },
    Scenario(name: "trail details, closed trail") {
        _ = trailDetail(3)
        return [Step(until: "button Start Hike disabled") {}]
    },
    // The trail was removed: the service answers (nil, nil).
    Scenario(name: "trail details, trail removed", answers: ["GET /trails/4": notFound]) {
        let detail = trailDetail(4)
        detail.onTrailGone = { Effects.shared.record("trail gone") }
        return [Step(until: "trail gone") { detail.reload() }]
    },
    Scenario(name: "trail details, details fail", answers: ["GET /trails/2": serverError]) {
        _ = trailDetail(2)
        return [Step(until: "trail.name") {}]
    },
    Scenario(name: "trail details, elevation fails", answers: ["GET /trails/2/elevation": offline]) {
        _ = trailDetail(2)
        return [Step(until: "trail.elevation") {}]
    },
    Scenario(name: "trail details, another trail set", answers: ["GET /trails/4": notFound]) {
        let detail = trailDetail(1)
        detail.onTrailGone = { Effects.shared.record("trail gone") }
        return [Step(until: "trail.elevation") {},
                Step(until: "trail.name") { detail.trailID = 2 },
                Step(until: "trail gone") { detail.trailID = 1; detail.trailID = 4 }]
    },
    Scenario(name: "comment posted, comment queued offline", answers: ["POST /trails/2/comments": [.status(200, body: "{}"), .transportFailure(.notConnectedToInternet)]]) {
        let detail = trailDetail(2)
        return [Step(until: "trail.elevation") {},
                Step(until: "trail.comments") { detail.postComment("nice") },
                Step(until: "server: POST /trails/2/comments") { detail.postComment("again") }]
    },
    Scenario(name: "start hike") {
        let detail = trailDetail(2)
        detail.onStartedHike = { Effects.shared.record("hike \($0.id) started") }
        return [Step(until: "trail.elevation") {},
                Step(until: "hike 72 started") { detail.startButton.sendActions() }]
    },
    Scenario(name: "start hike fails", answers: ["POST /trails/2/hikes": serverError]) {
        let detail = trailDetail(2)
        return [Step(until: "trail.elevation") {},
                Step(until: "present alert") { detail.startButton.sendActions() }]
    },
    Scenario(name: "hike finished, conditions refreshed") {
        let list = TrailListViewController()
        _ = NavigationController(root: list)
        return [Step(until: "trails shows") {},
                Step(until: "trails.status") { NotificationHub.default.post(name: .hikeDidFinish) }]
    },
]

// MARK: - Finishing a hike

scenarios += [
    Scenario(name: "finish hike, photos, invitations") {
        let summary = hikeSummary(captions: ["summit", "lake"], companions: ["bo", "cy"])
        return [Step(until: "hike flow done") { summary.finishButton.sendActions() }]
    },
    // One photo of three fails inside the fan-out; one companion declines: (false, nil).
    Scenario(name: "finish hike, one photo fails, one companion declines",
             answers: ["POST /hikes/71/photos/1": serverError, "POST /hikes/71/invites/cy": conflict]) {
        let summary = hikeSummary(captions: ["summit", "lake", "ibex"], companions: ["bo", "cy", "dee"])
        return [Step(until: "hike flow done") { summary.finishButton.sendActions() }]
    },
    Scenario(name: "finish hike, invitation fails", answers: ["POST /hikes/71/invites/bo": offline]) {
        let summary = hikeSummary(captions: [], companions: ["bo"])
        return [Step(until: "hike flow done") { summary.finishButton.sendActions() }]
    },
    // The server does not accept the hike: (false, nil); the hiker discards it.
    Scenario(name: "finish hike, too short, discarded", answers: ["POST /hikes/71/finish": [.status(422, body: "")]]) {
        let summary = hikeSummary(captions: ["summit"], companions: [])
        return [Step(until: "present alert") { summary.finishButton.sendActions() },
                Step(until: "hike flow done") { tapAlert("Discard") }]
    },
    Scenario(name: "finish hike, too short, keep recording", answers: ["POST /hikes/71/finish": [.status(422, body: "")]]) {
        let summary = hikeSummary(captions: ["summit"], companions: [])
        return [Step(until: "present alert") { summary.finishButton.sendActions() },
                Step(until: "button Finish enabled") { tapAlert("Keep Recording") }]
    },
    Scenario(name: "finish hike, too short, discard fails", answers: ["POST /hikes/71/finish": [.status(422, body: "")], "DELETE /hikes/71": serverError]) {
        let summary = hikeSummary(captions: ["summit"], companions: [])
        return [Step(until: "present alert") { summary.finishButton.sendActions() },
                Step(until: "hike flow done") { tapAlert("Discard") }]
    },
    Scenario(name: "finish hike fails", answers: ["POST /hikes/71/finish": offline]) {
        let summary = hikeSummary(captions: ["summit"], companions: [])
        return [Step(until: "summary.result") { summary.finishButton.sendActions() }]
    },
    Scenario(name: "finish hike, track upload fails", answers: ["POST /hikes/71/track": serverError]) {
        let summary = hikeSummary(captions: ["summit"], companions: [])
        return [Step(until: "summary.result") { summary.finishButton.sendActions() }]
    },
    Scenario(name: "resume a hike on the second page") {
        let coordinator = HikeCoordinator(navigation: NavigationController(root: ViewController(title: "home")), trailID: 1)
        return [Step(until: "present Hike Summary") { coordinator.resume(hikeID: 73) }]
    },
    Scenario(name: "resume a finished hike") {
        let coordinator = HikeCoordinator(navigation: NavigationController(root: ViewController(title: "home")), trailID: 1)
        return [Step(until: "banner") { coordinator.resume(hikeID: 72) }]
    },
    Scenario(name: "resume an unknown hike, lookup fails", answers: ["GET /hikes?page=2": serverError]) {
        let coordinator = HikeCoordinator(navigation: NavigationController(root: ViewController(title: "home")), trailID: 1)
        return [Step(until: "banner") { coordinator.resume(hikeID: 99) }]
    },
    Scenario(name: "hike from the trail list") {
        let list = TrailListViewController()
        let navigation = NavigationController(root: list)
        let coordinator = HikeCoordinator(navigation: navigation, trailID: 2)
        coordinator.onFinish = { Effects.shared.record("coordinator finished") }
        return [Step(until: "trails shows") {},
                Step(until: "trail.elevation") { coordinator.start() },
                Step(until: "present Hike Summary") { (navigation.topViewController as? TrailDetailViewController)?.startButton.sendActions() },
                Step(until: "coordinator finished") { (ViewController.topmost as? HikeSummaryViewController)?.finishButton.sendActions() }]
    },
]

// MARK: - Profiles

scenarios += [
    Scenario(name: "profile") {
        _ = profileScreen(5)
        return [Step(until: "profile.followers") {}]
    },
    // The avatar is cached: the cache answers at once, on the network queue's callback.
    Scenario(name: "profile, avatar cached", cachedAvatars: [5]) {
        _ = profileScreen(5)
        return [Step(until: "profile.followers") {}]
    },
    Scenario(name: "profile, followers fail", answers: ["GET /users/5/followers": serverError]) {
        _ = profileScreen(5)
        return [Step(until: "profile.followers") {}]
    },
    Scenario(name: "profile, avatar fails", answers: ["GET /users/5/avatar": serverError]) {
        _ = profileScreen(5)
        return [Step(until: "profile.followers") {}]
    },
    Scenario(name: "profile, account deleted", answers: ["GET /users/8": notFound]) {
        _ = profileScreen(8)
        return [Step(until: "present alert") {},
                Step(until: "pop") { tapAlert("OK") }]
    },
    Scenario(name: "profile, offline", answers: ["GET /users/8": offline]) {
        _ = profileScreen(8)
        return [Step(until: "present alert") {}]
    },
    Scenario(name: "profile, rename", answers: ["PUT /me": [.status(200, body: "{}"), .status(500, body: "")]]) {
        let profile = profileScreen(1)
        profile.proposedName = "Ada L."
        return [Step(until: "profile.followers") {},
                Step(until: "present alert") { profile.editButton.sendActions() },
                Step(until: "profile.name: Ada L.") { tapAlert("Save") },
                Step(until: "present alert") { profile.editButton.sendActions() },
                Step(until: "profile.name: (not saved)") { tapAlert("Save") }]
    },
    Scenario(name: "profile, compact header") {
        let model = ProfileViewModel(userID: 6)
        model.onHeaderChange = { Effects.shared.record("header \($0.avatar) \($0.hikes)") }
        model.onError = { Effects.shared.record("header error \($0)") }
        return [Step(until: "header") { model.loadCompactHeader() }]
    },
    Scenario(name: "profile, compact header fails", answers: ["GET /users/6": serverError]) {
        let model = ProfileViewModel(userID: 6)
        model.onError = { Effects.shared.record("header error \($0)") }
        return [Step(until: "header") { model.loadCompactHeader() }]
    },
]

// MARK: - Friends

scenarios += [
    Scenario(name: "friends, add one") {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "present alert") { friends.addFriend(handle: "gus") },
                Step(until: "friends shows") { tapAlert("Invite") }]
    },
    // Nobody has that handle: the service answers (nil, nil).
    Scenario(name: "friends, nobody with that handle", answers: ["GET /users/by-handle/zed": notFound]) {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "No hiker") { friends.addFriend(handle: "zed") }]
    },
    // They do not accept invitations: (false, nil).
    Scenario(name: "friends, invitation declined", answers: ["POST /hikes/71/invites/gus": conflict]) {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "present alert") { friends.addFriend(handle: "gus") },
                Step(until: "does not accept") { tapAlert("Invite") }]
    },
    Scenario(name: "friends, invitation fails", answers: ["POST /hikes/71/invites/gus": serverError]) {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "present alert") { friends.addFriend(handle: "gus") },
                Step(until: "Invitation failed") { tapAlert("Invite") }]
    },
    Scenario(name: "friends, lookup fails", answers: ["GET /users/by-handle/gus": offline]) {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "offline") { friends.addFriend(handle: "gus") }]
    },
    Scenario(name: "friends, list fails", answers: ["GET /me/friends": serverError]) {
        _ = friendsScreen()
        return [Step(until: "friends.status") {}]
    },
    Scenario(name: "friends, open a profile") {
        let friends = friendsScreen()
        return [Step(until: "friends shows") {},
                Step(until: "profile.followers") { friends.open(row: 1) }]
    },
]

// MARK: - Settings

scenarios += [
    Scenario(name: "notifications on") {
        let settings = settingsScreen()
        return [Step(until: "settings.push") { settings.pushButton.sendActions() }]
    },
    // The user said no: (false, nil).
    Scenario(name: "notifications declined", answers: ["GET /me/permissions/notifications": [.status(403, body: "")]]) {
        let settings = settingsScreen()
        return [Step(until: "settings.push") { settings.pushButton.sendActions() }]
    },
    Scenario(name: "notifications, permission fails", answers: ["GET /me/permissions/notifications": offline]) {
        let settings = settingsScreen()
        return [Step(until: "settings.push") { settings.pushButton.sendActions() }]
    },
    Scenario(name: "notifications, registration fails", answers: ["POST /me/devices": serverError]) {
        let settings = settingsScreen()
        return [Step(until: "settings.push") { settings.pushButton.sendActions() }]
    },
    Scenario(name: "sign out") {
        let settings = settingsScreen()
        return [Step(until: "present alert") { settings.signOutButton.sendActions() },
                Step(until: "signed out") { tapAlert("Sign Out") }]
    },
    Scenario(name: "sign out, server unreachable", answers: ["POST /session/logout": offline]) {
        let settings = settingsScreen()
        return [Step(until: "present alert") { settings.signOutButton.sendActions() },
                Step(until: "signed out") { tapAlert("Sign Out") }]
    },
    Scenario(name: "offline changes replayed", pending: [.rename("Ada"), .comment(trailID: 1, text: "muddy"), .deleteHike(72)]) {
        let settings = settingsScreen()
        return [Step(until: "settings.offline") { settings.replayButton.sendActions() }]
    },
    Scenario(name: "offline changes, second fails", answers: ["POST /trails/1/comments": serverError],
             pending: [.rename("Ada"), .comment(trailID: 1, text: "muddy"), .deleteHike(72)]) {
        let settings = settingsScreen()
        return [Step(until: "settings.offline") { settings.replayButton.sendActions() }]
    },
]

// MARK: - Sync

scenarios += [
    Scenario(name: "sync") {
        let sync = syncScreen(pending: [71, 72])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    Scenario(name: "sync, second page fails", answers: [trailsPage2: serverError]) {
        let sync = syncScreen(pending: [71])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    // One upload of three fails inside the fan-out.
    Scenario(name: "sync, one track fails", answers: ["POST /hikes/72/track": serverError]) {
        let sync = syncScreen(pending: [71, 72, 73])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    Scenario(name: "sync, every track fails", answers: ["POST /hikes/71/track": offline, "POST /hikes/72/track": offline]) {
        let sync = syncScreen(pending: [71, 72])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    // The user taps Cancel while the first page is in flight.
    Scenario(name: "sync, cancelled during paging", hooks: [trailsPage1: { onMain { Stage.sync?.cancelButton.sendActions() } }]) {
        let sync = syncScreen(pending: [71])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    // ... or while the conditions are loading.
    Scenario(name: "sync, cancelled during the fan-out", hooks: ["GET /trails/2/conditions": { onMain { Stage.sync?.cancelButton.sendActions() } }]) {
        let sync = syncScreen(pending: [71])
        return [Step(until: "sync.outcome") { sync.start() }]
    },
    // A second sync while one runs fails at once, on the caller's queue.
    Scenario(name: "sync, started twice") {
        let sync = syncScreen()
        return [Step(until: "trails, 2 open") { sync.start(); sync.start() }]
    },
    Scenario(name: "offline comments posted together", answers: ["POST /trails/2/comments": serverError],
             pending: [.comment(trailID: 1, text: "muddy"), .rename("Ada"), .comment(trailID: 2, text: "icy"), .comment(trailID: 3, text: "closed")]) {
        let sync = syncScreen()
        return [Step(until: "comments posted") { sync.sendComments() }]
    },
    Scenario(name: "hike history") {
        let model = historyModel()
        return [Step(until: "history") { model.loadAll() },
                Step(until: "history") { model.delete(model.hikes[0]) }]
    },
    Scenario(name: "hike history, second page fails", answers: ["GET /hikes?page=2": serverError]) {
        let model = historyModel()
        return [Step(until: "history error") { model.loadAll() }]
    },
    Scenario(name: "hike history, delete fails", answers: ["DELETE /hikes/71": serverError]) {
        let model = historyModel()
        return [Step(until: "history") { model.loadAll() },
                Step(until: "history error") { model.delete(model.hikes[0]) }]
    },
    Scenario(name: "hike history, delete several, one fails", answers: ["DELETE /hikes/72": serverError]) {
        let model = historyModel()
        return [Step(until: "history") { model.loadAll() },
                Step(until: "history error") { model.delete(model.hikes) }]
    },
]

// MARK: - Onboarding and banners

scenarios += [
    Scenario(name: "onboarding, follow a friend") {
        let window = ViewController(title: "window")
        let onboarding = OnboardingCoordinator(presenter: window)
        onboarding.onDone = { Effects.shared.record("onboarding done: \($0)") }
        return [Step(until: "present alert") { onboarding.start(suggestedFriend: "bo") },
                Step(until: "onboarding done") { tapAlert("Follow") }]
    },
    Scenario(name: "onboarding, skip the friend, no trail", answers: [trailsPage1: serverError]) {
        let window = ViewController(title: "window")
        let onboarding = OnboardingCoordinator(presenter: window)
        onboarding.onDone = { Effects.shared.record("onboarding done: \($0)") }
        return [Step(until: "present alert") { onboarding.start(suggestedFriend: "bo") },
                Step(until: "onboarding done") { tapAlert("Skip") }]
    },
    Scenario(name: "onboarding, no such friend, notifications declined",
             answers: ["GET /users/by-handle/zed": notFound, "GET /me/permissions/notifications": [.status(403, body: "")]]) {
        let window = ViewController(title: "window")
        let onboarding = OnboardingCoordinator(presenter: window)
        onboarding.onDone = { Effects.shared.record("onboarding done: \($0)") }
        return [Step(until: "onboarding done") { onboarding.start(suggestedFriend: "zed") }]
    },
    Scenario(name: "banner until a refresh answers") {
        [Step(until: "banner: renewed") {
            BannerPresenter.shared.show("Renewing…") { finish in
                AuthService.shared.refreshSession { session, _ in finish(session == nil ? "not renewed" : "renewed") }
            }
        }]
    },
]

// MARK: - Invitations, leaderboard, gallery, links

@MainActor
func invitesScreen() -> InvitesViewController {
    let invites = InvitesViewController()
    invites.onJoinedHike = { Effects.shared.record("joined \($0.id)") }
    NavigationController(root: ViewController(title: "home")).push(invites, animated: false)
    return invites
}

@MainActor
func router() -> DeepLinkRouter {
    let router = DeepLinkRouter(navigation: NavigationController(root: ViewController(title: "home")))
    router.onOpen = { Effects.shared.record("opened \($0)") }
    return router
}

scenarios += [
    Scenario(name: "invitations, join one") {
        let invites = invitesScreen()
        return [Step(until: "invites shows") {},
                Step(until: "present alert") { invites.select(row: 1) },
                Step(until: "joined 82") { tapAlert("Join") }]
    },
    // The invitation expired meanwhile: the service answers (nil, nil).
    Scenario(name: "invitations, expired", answers: ["POST /me/invites/2/accept": notFound]) {
        let invites = invitesScreen()
        return [Step(until: "invites shows") {},
                Step(until: "present alert") { invites.select(row: 1) },
                Step(until: "expired") { tapAlert("Join") }]
    },
    Scenario(name: "invitations, joining fails", answers: ["POST /me/invites/2/accept": offline]) {
        let invites = invitesScreen()
        return [Step(until: "invites shows") {},
                Step(until: "present alert") { invites.select(row: 1) },
                Step(until: "Could not accept") { tapAlert("Join") }]
    },
    Scenario(name: "invitations, decline all") {
        let invites = invitesScreen()
        return [Step(until: "invites shows") {},
                Step(until: "present alert") { invites.declineAllButton.sendActions() },
                Step(until: "invites.message") { tapAlert("Decline All") }]
    },
    Scenario(name: "invitations, decline all, second fails", answers: ["POST /me/invites/2/decline": serverError]) {
        let invites = invitesScreen()
        return [Step(until: "invites shows") {},
                Step(until: "present alert") { invites.declineAllButton.sendActions() },
                Step(until: "invites.message") { tapAlert("Decline All") }]
    },
    Scenario(name: "invitations, inbox fails", answers: ["GET /me/invites": serverError]) {
        _ = invitesScreen()
        return [Step(until: "invites.message") {}]
    },
    Scenario(name: "leaderboard") {
        let board = LeaderboardViewController()
        board.loadViewIfNeeded()
        return [Step(until: "leaderboard.week") {},
                Step(until: "leaderboard.month") { board.monthButton.sendActions() }]
    },
    Scenario(name: "leaderboard, signed out elsewhere", answers: ["GET /leaderboard/week": [.status(401, body: "")]]) {
        let board = LeaderboardViewController()
        board.onSignInNeeded = { Effects.shared.record("sign in needed") }
        return [Step(until: "sign in needed") { board.loadViewIfNeeded() }]
    },
    Scenario(name: "leaderboard, month fails", answers: ["GET /leaderboard/month": serverError]) {
        let board = LeaderboardViewController()
        board.loadViewIfNeeded()
        return [Step(until: "leaderboard.week") {},
                Step(until: "leaderboard.status") { board.monthButton.sendActions() }]
    },
    Scenario(name: "leaderboard, both at once, one fails", answers: ["GET /leaderboard/week": [.status(200, body: "[]"), .status(500, body: "")]]) {
        let board = LeaderboardViewController()
        board.loadViewIfNeeded()
        return [Step(until: "leaderboard.week") {},
                Step(until: "leaderboard.status") { board.refreshAll() }]
    },
    // The second forecast comes from memory, at once; trail 3 has a storm warning.
    Scenario(name: "leaderboard, challenge forecast twice") {
        let board = LeaderboardViewController()
        board.loadViewIfNeeded()
        return [Step(until: "leaderboard.week") {},
                Step(until: "leaderboard.weather") { board.showChallengeForecast(trailID: 3) },
                Step(until: "leaderboard.weather") { board.showChallengeForecast(trailID: 3) }]
    },
    Scenario(name: "leaderboard, no forecast", answers: ["GET /trails/2/forecast": offline]) {
        let board = LeaderboardViewController()
        board.loadViewIfNeeded()
        return [Step(until: "leaderboard.week") {},
                Step(until: "leaderboard.weather") { board.showChallengeForecast(trailID: 2) }]
    },
    Scenario(name: "forecasts prefetched, one fails", answers: ["GET /trails/2/forecast": serverError]) {
        [Step(until: "prefetched") {
            WeatherService.shared.prefetch([1, 2, 4]) { count in Effects.shared.record("prefetched \(count)") }
        }]
    },
    Scenario(name: "gallery, one thumbnail fails", answers: ["GET /hikes/71/thumbnails/2": serverError]) {
        let gallery = PhotoGalleryViewController.make(for: Hike(id: 71, trailID: 1, distanceKm: 3, isFinished: true), photoCount: 4)
        return [Step(until: "gallery shows") { gallery.loadViewIfNeeded() }]
    },
    Scenario(name: "gallery, no cover", answers: ["GET /hikes/71/thumbnails/0": offline]) {
        let gallery = PhotoGalleryViewController.make(for: Hike(id: 71, trailID: 1, distanceKm: 3, isFinished: true), photoCount: 2)
        return [Step(until: "gallery shows") { gallery.loadViewIfNeeded() }]
    },
    Scenario(name: "link to a trail with a storm warning") {
        let links = router()
        return [Step(until: "opened trail 3") { links.open("trailmates://trail/3") }]
    },
    Scenario(name: "link to a removed trail", answers: ["GET /trails/4": notFound]) {
        let links = router()
        return [Step(until: "banner") { links.open("trailmates://trail/4") }]
    },
    Scenario(name: "link to a trail, offline", answers: ["GET /trails/1": offline]) {
        let links = router()
        return [Step(until: "banner") { links.open("trailmates://trail/1") }]
    },
    Scenario(name: "link to a hiker") {
        let links = router()
        return [Step(until: "profile.followers") { links.open("trailmates://hiker/gus") }]
    },
    Scenario(name: "link to nobody", answers: ["GET /users/by-handle/zed": notFound]) {
        let links = router()
        return [Step(until: "banner") { links.open("trailmates://hiker/zed") }]
    },
    Scenario(name: "link to an invitation") {
        let links = router()
        return [Step(until: "opened hike") { links.open("trailmates://invite/3") }]
    },
    Scenario(name: "link to an expired invitation", answers: ["POST /me/invites/3/accept": notFound]) {
        let links = router()
        return [Step(until: "banner") { links.open("trailmates://invite/3") }]
    },
    Scenario(name: "link to an invitation not in the inbox") {
        let links = router()
        return [Step(until: "banner") { links.open("trailmates://invite/9") }]
    },
    Scenario(name: "link that is not ours") {
        let links = router()
        return [Step(until: "banner") { links.open("https://example.com") }]
    },
]

let allScenarios = scenarios
Thread.detachNewThread {
    for scenario in allScenarios {
        let effects = scenario.run()
        print("== \(scenario.name)")
        for line in effects { print(line) }
    }
    exit(0)
}
dispatchMain()
