import Foundation

/// Photo uploads for dishes, in chunks, so that a large photo on a weak connection shows
/// progress and can be stopped between chunks.
public final class UploadService: APIClient {
    private struct Session: Decodable {
        var uploadId: String
    }

    /// Uploads a JPEG or PNG photo for a dish. The returned task reports progress and cancels.
    @discardableResult
    public func uploadPhoto(_ data: Data, forItem itemID: String, chunkSize: Int = 64 * 1024, progress: ((Double) -> Void)? = nil, completion: @escaping UploadCompletion) -> UploadTask {
        let task = UploadTask(totalBytes: data.count)
        guard !data.isEmpty, chunkSize > 0 else {
            completion(.failure(.invalidArgument("nothing to upload")))
            return task
        }
        guard Self.isImage(data) else {
            completion(.failure(.invalidArgument("not a JPEG or PNG image")))
            return task
        }
        let start: HTTPRequest
        do {
            start = try HTTPRequest.json(.post, "menu-items/\(itemID)/photo-uploads", ["byte_count": data.count])
        } catch {
            completion(.failure(SDKError(error)))
            return task
        }
        let request = perform(start) { [weak self] result in
            guard let self = self else { return }
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                JSONCoding.decode(Session.self, from: response) { decoded in
                    switch decoded {
                    case .failure(let error):
                        completion(.failure(error))
                    case .success(let session):
                        self.sendChunks(of: data, offset: 0, chunkSize: chunkSize, uploadID: session.uploadId, task: task, progress: progress, completion: completion)
                    }
                }
            }
        }
        task.onCancel { request.cancel() }
        return task
    }

    private func sendChunks(of data: Data, offset: Int, chunkSize: Int, uploadID: String, task: UploadTask, progress: ((Double) -> Void)?, completion: @escaping UploadCompletion) {
        if task.isCancelled {
            completion(.failure(.cancelled))
            return
        }
        guard offset < data.count else {
            finish(uploadID: uploadID, completion: completion)
            return
        }
        let end = min(offset + chunkSize, data.count)
        let chunk = data.subdata(in: offset..<end)
        let request = HTTPRequest(method: .put, path: "photo-uploads/\(uploadID)/chunks", query: ["offset": String(offset)], headers: ["Content-Type": "application/octet-stream"], body: chunk)
        perform(request) { [weak self] result in
            guard let self = self else { return }
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response) where !response.isSuccess:
                completion(.failure(JSONCoding.error(for: response) ?? .http(status: response.status, message: nil)))
            case .success:
                let fraction = task.add(sent: chunk.count)
                progress?(fraction)
                self.sendChunks(of: data, offset: end, chunkSize: chunkSize, uploadID: uploadID, task: task, progress: progress, completion: completion)
            }
        }
    }

    private func finish(uploadID: String, completion: @escaping UploadCompletion) {
        perform(HTTPRequest(method: .post, path: "photo-uploads/\(uploadID)/finish")) { result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let response):
                JSONCoding.decode(PhotoAsset.self, from: response, completion: completion)
            }
        }
    }

    /// Removes a dish's photo.
    @discardableResult
    public func deletePhoto(forItem itemID: String, completion: ((Error?) -> Void)? = nil) -> Cancellable {
        perform(HTTPRequest(method: .delete, path: "menu-items/\(itemID)/photo")) { result in
            switch result {
            case .failure(let error):
                completion?(error)
            case .success(let response):
                completion?(JSONCoding.error(for: response))
            }
        }
    }

    /// JPEG (FF D8 FF) or PNG (89 50 4E 47), by their first bytes.
    static func isImage(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(4))
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return true }
        return bytes == [0x89, 0x50, 0x4E, 0x47]
    }
}
