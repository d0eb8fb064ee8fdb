import Foundation

// The handler types the services share. Declared in an extension of the base class (as the
// SDK's first release did) so that subclasses in other files can name them unqualified.
extension APIClient {
    public typealias VoidCompletion = (Error?) -> Void
    public typealias KitchensCompletion = (Result<[Kitchen], SDKError>) -> Void
    public typealias KitchenCompletion = (Result<Kitchen, SDKError>) -> Void
    public typealias MenuCompletion = (Result<Menu, SDKError>) -> Void
    public typealias OrderCompletion = (Result<Order, SDKError>) -> Void
    public typealias AccountCompletion = (Account?, Error?) -> Void
    public typealias UploadCompletion = (Result<PhotoAsset, SDKError>) -> Void
}
