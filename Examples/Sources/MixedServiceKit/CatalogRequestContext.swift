import Foundation
import Hummingbird

/// The context of every request: Hummingbird's basic one, with JSON answers whose keys come in a
/// stable, sorted order, so that what `curl` shows matches the README from one run to the next.
public struct CatalogRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
