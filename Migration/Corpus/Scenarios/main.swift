import Dispatch
import Foundation

// Runs every flow of the corpus app with no failure, then with each of its steps failing (a
// Bool step answering `false`), and prints the effects in order with the kind of thread of each.
// CallSiteCorpusTests builds this with the original app and with both migrated forms and
// compares the output.

struct Flow {
    var name: String
    /// The operations the flow asks for (see Networking.swift and Persistence.swift); each
    /// one is made to fail in a scenario of its own.
    var steps: [String]
    /// How many final effects every path of the flow ends with.
    var finals = 1
    var run: @Sendable () -> Void
}

DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
let transport = Transport()
let users = UserService(transport: transport)
let feedService = FeedService(transport: transport)
let settingsService = SettingsService(transport: transport)
let checkoutService = CheckoutService(transport: transport)
let profileService = ProfileService(transport: transport)
let searchService = SearchService(transport: transport)
let store = Store()
let ada = User(id: 7, name: "ada")

let settings = SettingsViewModel(users: users, settingsService: settingsService, store: store)
let checkout = CheckoutViewModel(users: users, checkout: checkoutService, store: store)
let feed = FeedViewModel(users: users, feed: feedService)
let profile = ProfileEditorViewModel(users: users, profiles: profileService, store: store)
let search = SearchViewModel(search: searchService, store: store)
let onboarding = OnboardingViewModel(users: users, settingsService: settingsService, feed: feedService, store: store)

let flows: [Flow] = [
    Flow(name: "settings.open", steps: ["me", "settings"]) { settings.open(token: "t1") },
    Flow(name: "settings.toggleNotifications", steps: ["permission", "settings", "update"]) { settings.toggleNotifications() },
    Flow(name: "settings.saveTheme", steps: ["settings", "update", "save"]) { settings.saveTheme("sepia") },
    Flow(name: "settings.signOut", steps: ["signout"]) { settings.signOut() },
    Flow(name: "settings.confirmReset", steps: ["confirm"]) { settings.confirmReset() },
    Flow(name: "settings.backUp", steps: ["exists"], finals: 2) { settings.backUp() },
    Flow(name: "settings.restoreTheme", steps: ["load"]) { settings.restoreTheme() },
    Flow(name: "settings.reloadTheme", steps: ["settings"]) { settings.reloadTheme() },
    Flow(name: "settings.refreshSession", steps: ["signin"]) { settings.refreshSession(token: "t2") },
    Flow(name: "settings.syncBadge", steps: ["count"]) { settings.syncBadge() },
    Flow(name: "settings.verifyThenLoad", steps: ["me", "verified", "settings"]) { settings.verifyThenLoad(token: "t3") },

    Flow(name: "checkout.checkOut", steps: ["me", "cart", "price", "pay", "mail"]) { checkout.checkOut(token: "t4") },
    Flow(name: "checkout.reserveAndPay", steps: ["cart", "stock", "price", "pay"]) { checkout.reserveAndPay(for: ada, token: "t5") },
    Flow(name: "checkout.priceCheck", steps: ["cart", "price"]) { checkout.priceCheck(for: ada) },
    Flow(name: "checkout.applyCoupon", steps: ["cart", "price"]) { checkout.applyCoupon(for: ada) },
    Flow(name: "checkout.quickTotal", steps: ["price"]) { checkout.quickTotal(of: Cart(items: ["tea"], coupon: nil)) },
    Flow(name: "checkout.payInTwoParts", steps: ["pay"], finals: 2) { checkout.payInTwoParts(token: "t6") },
    Flow(name: "checkout.cartBadge", steps: ["cart"]) { checkout.cartBadge(for: ada) },
    Flow(name: "checkout.resend", steps: ["mail"]) { checkout.resend(Receipt(number: "R-1", amount: 1)) },
    Flow(name: "checkout.greet", steps: ["signin"]) { checkout.greet(token: "t7") },
    Flow(name: "checkout.saveForLater", steps: ["save", "count"]) { checkout.saveForLater(Cart(items: ["tea"], coupon: nil)) },

    Flow(name: "feed.loadFirstPages", steps: ["me", "feed"]) { feed.loadFirstPages(token: "t8") },
    Flow(name: "feed.loadMore", steps: ["feed"]) { feed.loadMore(for: ada, after: FeedPage(number: 1, posts: [], hasMore: true)) },
    Flow(name: "feed.loadMore.last", steps: ["feed"]) { feed.loadMore(for: ada, after: FeedPage(number: 3, posts: [], hasMore: false)) },
    Flow(name: "feed.likeNewest", steps: ["feed", "like", "unread"]) { feed.likeNewest(for: ada) },
    Flow(name: "feed.repostNewest", steps: ["me", "feed", "like", "unread"]) { feed.repostNewest(token: "t13") },
    Flow(name: "feed.compose", steps: ["canPost", "unread"]) { feed.compose() },
    Flow(name: "feed.refreshBadge", steps: ["unread"]) { feed.refreshBadge() },
    Flow(name: "feed.prefetch", steps: ["feed"], finals: 3) { feed.prefetch(for: ada) },
    Flow(name: "feed.openFirstPost", steps: ["feed"]) { feed.openFirstPost(for: ada) },
    Flow(name: "feed.likeAndCount", steps: ["like", "unread"]) { feed.likeAndCount(Post(id: 1, author: 7, title: "Hi")) },
    Flow(name: "feed.showTrending", steps: ["trending"]) { feed.showTrending() },

    Flow(name: "profile.open", steps: ["me", "profile"]) { profile.open(token: "t9") },
    Flow(name: "profile.rename", steps: ["nameCheck", "me", "profile", "publish"]) { profile.rename(to: "grace", token: "t10") },
    Flow(name: "profile.changeAvatar", steps: ["upload", "profile", "publish", "save"]) { profile.changeAvatar(Data([1, 2, 3]), for: ada) },
    Flow(name: "profile.restoreDraft", steps: ["load", "publish"]) { profile.restoreDraft(for: ada) },
    Flow(name: "profile.previewAvatar", steps: ["upload"]) { profile.previewAvatar(Data([4])) },
    Flow(name: "profile.discardDraft", steps: ["save"]) { profile.discardDraft() },
    Flow(name: "profile.reloadBio", steps: ["profile", "publish"]) { profile.reloadBio(for: ada) },
    Flow(name: "profile.whoAmI", steps: ["signin"]) { profile.whoAmI(token: "t11") },

    Flow(name: "search.find", steps: ["suggest", "search"]) { search.find("vo") },
    Flow(name: "search.repeatLastSearch", steps: ["recent", "search"]) { search.repeatLastSearch() },
    Flow(name: "search.typeahead", steps: ["suggest"]) { search.typeahead("sw") },
    Flow(name: "search.searchEach", steps: ["search"], finals: 2) { search.searchEach(["a", "b"]) },
    Flow(name: "search.searchWithWildcard", steps: ["search"]) { search.searchWithWildcard("zzz") },
    Flow(name: "search.recentOrNothing", steps: ["recent"]) { search.recentOrNothing() },
    Flow(name: "search.prepareSuggestions", steps: ["suggest"]) { search.prepareSuggestions("pr") },
    Flow(name: "search.clearHistory", steps: ["save", "count"]) { search.clearHistory() },
    Flow(name: "search.showPopular", steps: ["popular"]) { search.showPopular() },

    Flow(name: "onboarding.signIn", steps: ["signin", "me", "verified", "settings"]) { onboarding.signIn(name: "lin", password: "pw") },
    Flow(name: "onboarding.advance.welcome", steps: ["unread"]) { onboarding.advance(from: .welcome) },
    Flow(name: "onboarding.advance.signIn", steps: ["signin"]) { onboarding.advance(from: .signIn(name: "max")) },
    Flow(name: "onboarding.advance.done", steps: []) { onboarding.advance(from: .done) },
    Flow(name: "onboarding.pickUpDraft", steps: ["load", "save", "count"]) { onboarding.pickUpDraft() },
    Flow(name: "onboarding.switchAccount", steps: ["signout", "signin"]) { onboarding.switchAccount(to: "kim", from: "token-old") },
    Flow(name: "onboarding.askForNotifications", steps: ["permission", "update"]) { onboarding.askForNotifications() },
    Flow(name: "onboarding.warmUp", steps: ["signin", "trending"]) { onboarding.warmUp(token: "t12") },
    Flow(name: "onboarding.checkDraft", steps: ["exists"]) { onboarding.checkDraft() },
    Flow(name: "onboarding.prefetchAll", steps: ["unread", "count"]) { onboarding.prefetchAll() },
]

Thread.detachNewThread {
    for flow in flows {
        for failing in [nil] + flow.steps.map(Optional.some) {
            FaultPlan.shared.set(failing.map { [$0] } ?? [])
            // The backend answers only once the flow's synchronous part has returned, as a real
            // round trip would: no race with the code after a call.
            backendQueue.suspend()
            flow.run()
            backendQueue.resume()
            EffectTrace.shared.waitForFinalEffects(flow.finals)
            // Anything a flow did after its final effects would show up in the next scenario.
            backendQueue.sync {}
            DispatchQueue.main.sync {}
            print("== \(flow.name)" + (failing.map { ", \($0) fails" } ?? ""))
            for line in EffectTrace.shared.take() { print(line) }
        }
    }
    exit(0)
}
dispatchMain()
