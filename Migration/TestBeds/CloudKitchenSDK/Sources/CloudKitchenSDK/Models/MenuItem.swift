import Foundation

/// A dish on a kitchen's menu. Prices are in cents to keep sums exact.
public final class MenuItem: Codable {
    public let id: String
    public let kitchenID: String
    public var name: String
    public var priceCents: Int
    public var isAvailable: Bool
    public var tags: [String]
    public var photoURL: URL?

    public init(id: String, kitchenID: String, name: String, priceCents: Int, isAvailable: Bool = true, tags: [String] = [], photoURL: URL? = nil) {
        self.id = id
        self.kitchenID = kitchenID
        self.name = name
        self.priceCents = priceCents
        self.isAvailable = isAvailable
        self.tags = tags
        self.photoURL = photoURL
    }

    enum CodingKeys: String, CodingKey {
        case id
        case kitchenID = "kitchenId"
        case name, priceCents, isAvailable, tags
        case photoURL = "photoUrl"
    }
}

/// A kitchen's whole menu, grouped in sections.
public final class Menu: Codable {
    public let kitchenID: String
    public var sections: [Section]
    public var updatedAt: Date

    public final class Section: Codable {
        public var title: String
        public var items: [MenuItem]
    }

    enum CodingKeys: String, CodingKey {
        case kitchenID = "kitchenId"
        case sections, updatedAt
    }

    /// Every item, in menu order.
    public var allItems: [MenuItem] { sections.flatMap(\.items) }
}

/// A photo stored on the platform after an upload.
public final class PhotoAsset: Codable {
    public let id: String
    public let url: URL
    public var byteCount: Int

    public init(id: String, url: URL, byteCount: Int) {
        self.id = id
        self.url = url
        self.byteCount = byteCount
    }
}
