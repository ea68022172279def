import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the widget document's thumbnails are (HeadlinesImages makes them, the host names them).
extension NotificationImageStore {
    /// The thumbnails' store: `thumbnails/` beside `images/`, named like the images (by image URL).
    public static func thumbnails(paths: XDGPaths) -> NotificationImageStore {
        NotificationImageStore(folder: paths.cacheDir + "/thumbnails")
    }

    /// Where the thumbnail of the stored image at `imagePath` is, by the rule above.
    public static func thumbnailPath(ofImage imagePath: String) -> String {
        PathText.directory(of: PathText.directory(of: imagePath)) + "/thumbnails/" + PathText.lastComponent(of: imagePath)
    }

    /// The thumbnail of each stored image in `images` (headline id to image path) that exists:
    /// what the host puts in the widget document.
    public static func existingThumbnails(of images: [String: String]) -> [String: String] {
        images.compactMapValues { image in
            let path = thumbnailPath(ofImage: image)
            var st = stat()
            return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_size > 0 ? path : nil
        }
    }
}
