-- binder_interface_frames: the frames that name a binder interface, on
-- the client's side (an AIDL proxy, IFoo$Stub$Proxy, or a content
-- provider's) and on the server's (IFoo$Stub.onTransact, a provider's
-- Transport) (engine/recon/binder.c).
-- -> id INTEGER, interface TEXT, is_server INTEGER, pid INTEGER
SELECT id,
       CASE WHEN class = 'android.content.ContentProviderProxy'
              OR class = 'android.content.ContentProvider$Transport' THEN 'android.content.IContentProvider'
            WHEN class LIKE '%$Stub$Proxy' THEN substr(class, 1, length(class) - 11)
            ELSE substr(class, 1, length(class) - 5) END,
       class = 'android.content.ContentProvider$Transport' OR class LIKE '%$Stub', pid
FROM frames
WHERE class LIKE '%$Stub$Proxy' OR (class LIKE '%$Stub' AND method = 'onTransact')
   OR class IN ('android.content.ContentProviderProxy', 'android.content.ContentProvider$Transport')
ORDER BY id
