import Foundation

// The app's model types, decoded from the backend's JSON.

struct User: Codable, Equatable, Sendable {
    let id: Int
    let handle: String
    var displayName: String
    var hikesCompleted: Int
    var avatarURL: String?
}

struct Session: Codable, Equatable, Sendable {
    let token: String
    let userID: Int
    let expiresIn: Int

    var isUsable: Bool { expiresIn > 0 }
}

enum Difficulty: String, Codable, Sendable {
    case easy, moderate, hard
}

struct Trail: Codable, Equatable, Sendable {
    let id: Int
    let name: String
    let lengthKm: Double
    let difficulty: Difficulty
}

struct TrailPage: Codable, Sendable {
    let trails: [Trail]
    let hasMore: Bool
}

struct Conditions: Codable, Equatable, Sendable {
    let trailID: Int
    let summary: String
    let isOpen: Bool

    static func unknown(for trailID: Int) -> Conditions {
        Conditions(trailID: trailID, summary: "unknown", isOpen: true)
    }
}

struct Hike: Codable, Equatable, Sendable {
    let id: Int
    let trailID: Int
    var distanceKm: Double
    var isFinished: Bool
}

struct TrackPoint: Codable, Equatable, Sendable {
    let latitude: Double
    let longitude: Double
    let elevation: Double
}

struct Photo: Codable, Equatable, Sendable {
    let id: Int
    let hikeID: Int
    let caption: String
}

struct Invite: Codable, Equatable, Sendable {
    let id: Int
    let fromHandle: String
    let hikeID: Int
}

struct Comment: Codable, Equatable, Sendable {
    let id: Int
    let author: String
    let text: String
}

struct ElevationProfile: Sendable {
    let gain: Double
    let loss: Double
}

/// A change made while offline, replayed by the offline queue.
enum PendingChange: Equatable, Sendable {
    case rename(String)
    case comment(trailID: Int, text: String)
    case deleteHike(Int)
}

struct Forecast: Codable, Equatable, Sendable {
    let trailID: Int
    let temperature: Int
    let warning: String?
}

struct LeaderboardEntry: Codable, Equatable, Sendable {
    let handle: String
    let kilometres: Double
}
