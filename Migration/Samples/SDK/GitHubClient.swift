import Foundation

/// A GitHub-style API client: typed results through a generic typealias.
final class GitHubClient: Sendable {
    private let http: HTTPClient
    private let oauth: OAuthClient

    init(http: HTTPClient, oauth: OAuthClient) {
        self.http = http
        self.oauth = oauth
    }

    func user(login: String, completion: @escaping CompletionHandler<User>) {
        http.get("/users/\(login)", completion: completion)
    }

    func currentUser(completion: @escaping CompletionHandler<User>) {
        let http = self.http
        oauth.currentCredentials { result in
            switch result {
            case .success:
                http.get("/user", completion: completion)
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    func repositories(of login: String, completion: @escaping CompletionHandler<[Repository]>) {
        http.get("/users/\(login)/repos", completion: completion)
    }

    func repository(owner: String, name: String, completion: @escaping CompletionHandler<Repository>) {
        http.get("/repos/\(owner)/\(name)", completion: completion)
    }

    func issues(owner: String, repository: String, state: String = "open", completion: @escaping CompletionHandler<[Issue]>) {
        http.get("/repos/\(owner)/\(repository)/issues", query: ["state": state], completion: completion)
    }

    func issue(owner: String, repository: String, number: Int, completion: @escaping @Sendable (Issue?, Error?) -> Void) {
        http.get("/repos/\(owner)/\(repository)/issues/\(number)") { (result: Result<Issue, Error>) in
            switch result {
            case .success(let issue): completion(issue, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    func comments(on issue: Issue, in repository: Repository, completion: @escaping CompletionHandler<[Comment]>) {
        http.get("/repos/\(repository.fullName)/issues/\(issue.number)/comments", completion: completion)
    }

    func addComment(_ body: String, to issue: Issue, in repository: Repository, completion: @escaping VoidCompletion) {
        http.post("/repos/\(repository.fullName)/issues/\(issue.number)/comments", body: Data(body.utf8), completion: completion)
    }

    func star(_ repository: Repository, completion: @escaping @Sendable (_ starred: Bool, _ error: Error?) -> Void) {
        http.post("/user/starred/\(repository.fullName)", body: Data()) { error in
            completion(error == nil, error)
        }
    }

    func unstar(_ repository: Repository, completion: @escaping VoidCompletion) {
        http.delete("/user/starred/\(repository.fullName)") { _, error in
            completion(error)
        }
    }

    func isStarred(_ repository: Repository, completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        http.status(of: "/user/starred/\(repository.fullName)") { status in
            completion(.success(status == 204))
        }
    }

    /// A page of repositories with the paging information.
    func searchRepositories(query: String, page: Int, completion: @escaping @Sendable (_ repositories: [Repository]?, _ info: PageInfo?, _ error: Error?) -> Void) {
        http.page("/search/repositories?q=\(query)", number: page, completion: completion)
    }

    /// Every page, one call per page: the handler is called as pages arrive.
    func allRepositories(query: String, completion: @escaping CompletionHandler<[Repository]>) {
        for page in 1...3 {
            http.page("/search/repositories?q=\(query)", number: page) { (repositories: [Repository]?, _: PageInfo?, error: Error?) in
                if let repositories {
                    completion(.success(repositories))
                } else {
                    completion(.failure(error ?? SDKError.notFound))
                }
            }
        }
    }

    /// The raw README with its response.
    @discardableResult
    func readme(owner: String, repository: String, completion: @escaping DataCompletion) -> RequestTask {
        http.data(for: Endpoint(path: "/repos/\(owner)/\(repository)/readme"), completion: completion)
    }

    /// Deletes a repository after confirming the name; `then:` as some clients name it.
    func deleteRepository(_ repository: Repository, confirming name: String, then: @escaping VoidCompletion) {
        guard name == repository.fullName else {
            then(SDKError.unauthorized)
            return
        }
        http.delete("/repos/\(repository.fullName)") { _, error in
            then(error)
        }
    }

    /// Rate limit remaining and its reset time.
    func rateLimit(completion: @escaping @Sendable (_ remaining: Int, _ reset: Date, _ error: Error?) -> Void) {
        http.status(of: "/rate_limit") { status in
            completion(status == 200 ? 5000 : 0, Date(timeIntervalSinceNow: 3600), nil)
        }
    }
}

/// A Twitter-style client whose handlers are often optional and called on the main queue.
final class TwitterClient: Sendable {
    private let http: HTTPClient

    init(http: HTTPClient) {
        self.http = http
    }

    func timeline(count: Int, completion: @escaping @Sendable ([Tweet]?, Error?) -> Void) {
        http.get("/timeline", query: ["count": "\(count)"]) { (result: Result<[Tweet], Error>) in
            DispatchQueue.main.async {
                completion(try? result.get(), result.failureError)
            }
        }
    }

    func tweet(id: String, completion: @escaping CompletionHandler<Tweet>) {
        http.get("/tweets/\(id)", completion: completion)
    }

    func post(text: String, completion: (@Sendable (Tweet?, Error?) -> Void)? = nil) {
        http.post("/tweets", body: Data(text.utf8)) { error in
            completion?(error == nil ? Tweet(id: UUID().uuidString, text: text, likes: 0) : nil, error)
        }
    }

    func like(_ tweet: Tweet, success: (@Sendable () -> Void)? = nil, failure: (@Sendable (Error) -> Void)? = nil) {
        http.post("/tweets/\(tweet.id)/like", body: Data()) { error in
            if let error {
                failure?(error)
            } else {
                success?()
            }
        }
    }

    func delete(_ tweet: Tweet, completion: @escaping VoidCompletion) {
        http.delete("/tweets/\(tweet.id)") { _, error in
            completion(error)
        }
    }

    func followers(of user: User, cursor: String?, completion: @escaping @Sendable (_ users: [User]?, _ nextCursor: String?, _ error: Error?) -> Void) {
        http.get("/followers/\(user.id)") { (result: Result<[User], Error>) in
            switch result {
            case .success(let users): completion(users, users.isEmpty ? nil : "next", nil)
            case .failure(let error): completion(nil, nil, error)
            }
        }
    }

    /// Streams tweets: called for each one, never "done". An event stream, not a completion.
    func stream(track: String, each: @escaping @Sendable (Tweet) -> Void) {
        each(Tweet(id: "0", text: track, likes: 0))
    }

    /// Uploads media and returns its identifier.
    func uploadMedia(_ data: Data, completion: @escaping @Sendable (Result<String, Error>) -> Void) {
        http.upload(data, to: "/media") { response, _, error in
            if let error {
                completion(.failure(error))
            } else {
                completion(.success("media-\(response?.statusCode ?? 0)"))
            }
        }
    }

    /// Logs a message built lazily, then reports it was sent.
    func log(_ message: @autoclosure @escaping @Sendable () -> String, completion: @escaping VoidCompletion) {
        http.post("/log", body: Data(message().utf8), completion: completion)
    }
}

extension Result {
    /// The failure, if any, as a plain `Error`.
    var failureError: Error? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
