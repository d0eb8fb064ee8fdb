import Foundation

/// Menu item thumbnails, straight from the transport: written before `APIClient` existed, in the
/// style of many SDKs' older corners, with a helper that answers every failure and hands back the
/// body of a success.
public final class ThumbnailLoader {
    private let transport: HTTPTransport

    public init(transport: HTTPTransport) {
        self.transport = transport
    }

    /// Loads the thumbnail of a menu item. A request cancelled underneath (the URL task itself,
    /// by the system or by the returned handle) gets no answer: whoever cancelled it knows.
    @discardableResult
    public func thumbnail(forItem itemID: String, completion: @escaping (Result<Data, SDKError>) -> Void) -> Cancellable {
        transport.send(HTTPRequest(path: "menu-items/\(itemID)/thumbnail")) { result in
            guard let body = checkedBody(of: result, answering: completion) else { return }
            guard UploadService.isImage(body) else {
                completion(.failure(.decoding("not an image")))
                return
            }
            completion(.success(body))
        }
    }
}

/// The body of a successful response; otherwise answers `completion` with the failure and
/// returns nil, except for a request cancelled underneath, which it does not answer.
func checkedBody<T>(of result: Result<HTTPResponse, Error>, answering completion: @escaping (Result<T, SDKError>) -> Void) -> Data? {
    switch result {
    case .failure(let error):
        if (error as NSError).code != NSURLErrorCancelled {
            completion(.failure(SDKError(error)))
        }
        return nil
    case .success(let response):
        if response.status == 404 {
            completion(.failure(.notFound(response.serverMessage ?? "not found")))
            return nil
        }
        guard response.isSuccess else {
            completion(.failure(.http(status: response.status, message: response.serverMessage)))
            return nil
        }
        return response.body
    }
}
