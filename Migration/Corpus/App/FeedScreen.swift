import Dispatch
import Foundation
import Vow

/// The feed screen: pages of posts, likes, the unread badge and the compose button.
final class FeedViewModel: @unchecked Sendable {
    let users: UserService
    let feed: FeedService
    private let lock = NSLock()
    private var posts: [Post] = []

    init(users: UserService, feed: FeedService) {
        self.users = users
        self.feed = feed
    }

    func log(_ text: String) {
        EffectTrace.shared.record("Feed: \(text)", final: false)
    }

    func show(_ text: String) {
        EffectTrace.shared.record("Feed: \(text)", final: true)
    }

    func append(_ page: FeedPage) {
        lock.lock()
        posts += page.posts
        lock.unlock()
    }

    // The first two pages, shown together on the main queue: the first page is read two steps on.
    func loadFirstPages(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user):
                self.feed.page(1, for: user) { result in
                    switch result {
                    case .success(let first):
                        self.append(first)
                        self.feed.page(2, for: user) { result in
                            switch result {
                            case .success(let second):
                                self.append(second)
                                DispatchQueue.main.async {
                                    self.show("\(first.posts.count + second.posts.count) posts, more: \(second.hasMore)")
                                }
                            case .failure(let error):
                                self.show("feed failed: \(error)")
                            }
                        }
                    case .failure(let error):
                        self.show("feed failed: \(error)")
                    }
                }
            case .failure(let error):
                self.show("feed failed: \(error)")
            }
        }
    }

    // The next page, when there is one: the call sits in an `if` of the function itself.
    func loadMore(for user: User, after page: FeedPage) {
        if page.hasMore {
            feed.page(page.number + 1, for: user) { result in
                switch result {
                case .success(let next):
                    self.append(next)
                    self.show("page \(next.number)")
                case .failure(let error):
                    self.show("page \(page.number + 1) failed: \(error)")
                }
            }
        } else {
            show("that was the last page")
        }
    }

    // Like the newest post, then refresh the badge; each failure has its own message.
    func likeNewest(for user: User) {
        feed.page(1, for: user) { result in
            switch result {
            case .success(let page):
                self.feed.like(page.posts[0]) { error in
                    if let error { self.show("like failed: \(error)"); return }
                    self.feed.unreadCount { count in
                        self.show("liked \(page.posts[0].title), \(count) unread")
                    }
                }
            case .failure(let error):
                self.show("no feed: \(error)")
            }
        }
    }

    // Repost the newest post of one's own feed: the user and the page are read two and three
    // steps later, the result shown on the main queue; one message for every failure.
    func repostNewest(token: String) {
        users.user(token: token) { result in
            switch result {
            case .success(let user):
                self.feed.page(1, for: user) { result in
                    switch result {
                    case .success(let page):
                        self.feed.like(page.posts[0]) { error in
                            if let error {
                                self.show("repost failed: \(error)")
                                return
                            }
                            self.feed.unreadCount { count in
                                DispatchQueue.main.async {
                                    self.show("\(user.name) reposted \(page.posts[0].title), \(count) unread")
                                }
                            }
                        }
                    case .failure(let error):
                        self.show("repost failed: \(error)")
                    }
                }
            case .failure(let error):
                self.show("repost failed: \(error)")
            }
        }
    }

    // Posting may be disabled: the `false` branch keeps its message.
    func compose() {
        feed.canPost { allowed in
            guard allowed else {
                self.show("posting is disabled for now")
                return
            }
            self.log("composer open")
            self.feed.unreadCount { count in
                self.show("composing with \(count) unread")
            }
        }
    }

    // The badge, set on the main queue.
    func refreshBadge() {
        feed.unreadCount { count in
            DispatchQueue.main.async {
                self.show("badge \(count)")
            }
        }
    }

    // Every page at once: a loop around callbacks, left alone.
    func prefetch(for user: User) {
        for number in 1...3 {
            feed.page(number, for: user) { result in
                switch result {
                case .success(let page): self.show("prefetched \(page.number)")
                case .failure(let error): self.show("prefetch \(number) failed: \(error)")
                }
            }
        }
    }

    // `guard case` inside the callback: its failure branch runs for any error, in both forms.
    func openFirstPost(for user: User) {
        feed.page(1, for: user) { result in
            guard case .success(let page) = result else {
                self.show("nothing to open")
                return
            }
            self.show("opened \(page.posts[0].title)")
        }
    }

    // The badge is asked for before the log line: not a straight line of calls, left alone.
    func likeAndCount(_ post: Post) {
        feed.like(post) { error in
            if let error { self.show("like failed: \(error)"); return }
            self.feed.unreadCount { count in
                self.show("\(count) unread")
            }
            self.log("badge requested")
        }
    }

    // An existing promise chain.
    func showTrending() {
        firstly {
            feed.trending()
        }.get { posts in
            self.log("\(posts.count) trending")
        }.map { posts in
            posts.map(\.title).joined(separator: ", ")
        }.done { titles in
            self.show("trending: \(titles)")
        }.catch { error in
            self.show("trending failed: \(error)")
        }
    }
}
