-- binder_server_frames: the frame a binder thread serves a call under
-- (engine/recon/binder.c). -> id INTEGER
SELECT id FROM frames WHERE class = 'android.os.Binder' AND method = 'execTransact' ORDER BY id
