import Foundation

/// Every request the app makes, in one place.
enum Endpoint: Sendable {
    case login(email: String)
    case refresh
    case logout
    case me
    case user(id: Int)
    case userByHandle(String)
    case followers(userID: Int)
    case updateProfile
    case trails(page: Int)
    case trail(id: Int)
    case conditions(trailID: Int)
    case search(String)
    case elevation(trailID: Int)
    case comments(trailID: Int)
    case postComment(trailID: Int)
    case startHike(trailID: Int)
    case finishHike(id: Int)
    case deleteHike(id: Int)
    case hikes(page: Int)
    case track(hikeID: Int)
    case photo(hikeID: Int, index: Int)
    case avatar(userID: Int)
    case invite(handle: String, hikeID: Int)
    case friends
    case registerDevice
    case permission
    case invites
    case answerInvite(id: Int, accept: Bool)
    case forecast(trailID: Int)
    case leaderboard(period: String)
    case thumbnail(hikeID: Int, index: Int)

    var method: String {
        switch self {
        case .login, .refresh, .logout, .postComment, .startHike, .finishHike, .track, .photo, .invite, .registerDevice, .answerInvite:
            return "POST"
        case .updateProfile:
            return "PUT"
        case .deleteHike:
            return "DELETE"
        default:
            return "GET"
        }
    }

    var path: String {
        switch self {
        case .login(let email): return "/login?email=\(email)"
        case .refresh: return "/session/refresh"
        case .logout: return "/session/logout"
        case .me: return "/me"
        case .user(let id): return "/users/\(id)"
        case .userByHandle(let handle): return "/users/by-handle/\(handle)"
        case .followers(let userID): return "/users/\(userID)/followers"
        case .updateProfile: return "/me"
        case .trails(let page): return "/trails?page=\(page)"
        case .trail(let id): return "/trails/\(id)"
        case .conditions(let trailID): return "/trails/\(trailID)/conditions"
        case .search(let query): return "/trails/search?q=\(query)"
        case .elevation(let trailID): return "/trails/\(trailID)/elevation"
        case .comments(let trailID): return "/trails/\(trailID)/comments"
        case .postComment(let trailID): return "/trails/\(trailID)/comments"
        case .startHike(let trailID): return "/trails/\(trailID)/hikes"
        case .finishHike(let id): return "/hikes/\(id)/finish"
        case .deleteHike(let id): return "/hikes/\(id)"
        case .hikes(let page): return "/hikes?page=\(page)"
        case .track(let hikeID): return "/hikes/\(hikeID)/track"
        case .photo(let hikeID, let index): return "/hikes/\(hikeID)/photos/\(index)"
        case .avatar(let userID): return "/users/\(userID)/avatar"
        case .invite(let handle, let hikeID): return "/hikes/\(hikeID)/invites/\(handle)"
        case .friends: return "/me/friends"
        case .registerDevice: return "/me/devices"
        case .permission: return "/me/permissions/notifications"
        case .invites: return "/me/invites"
        case .answerInvite(let id, let accept): return "/me/invites/\(id)/\(accept ? "accept" : "decline")"
        case .forecast(let trailID): return "/trails/\(trailID)/forecast"
        case .leaderboard(let period): return "/leaderboard/\(period)"
        case .thumbnail(let hikeID, let index): return "/hikes/\(hikeID)/thumbnails/\(index)"
        }
    }
}
