import Foundation

/// A kitchen on the platform. A class with mutable properties, as the SDK has always shipped it:
/// apps keep one and update it from push notifications.
public final class Kitchen: Codable {
    public let id: String
    public var name: String
    public var cuisine: String
    public var isOpen: Bool
    public var rating: Double
    public var location: Location

    public init(id: String, name: String, cuisine: String, isOpen: Bool, rating: Double, location: Location) {
        self.id = id
        self.name = name
        self.cuisine = cuisine
        self.isOpen = isOpen
        self.rating = rating
        self.location = location
    }
}

/// A point on the map, in degrees.
public struct Location: Codable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in metres.
    public func distance(to other: Location) -> Double {
        let radius = 6_371_000.0
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * atan2(sqrt(a), sqrt(1 - a))
    }
}

/// Opening hours for one day, in minutes after midnight.
public struct OpeningHours: Codable, Equatable {
    public var weekday: Int
    public var opens: Int
    public var closes: Int

    public func contains(minute: Int) -> Bool {
        opens <= minute && minute < closes
    }
}
