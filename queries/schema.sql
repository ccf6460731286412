-- schema: every table of a btrace-analyze trace database (DESIGN §4).
-- Times are integer nanoseconds on the trace clock, sizes in bytes.
-- Counters in samples are cumulative as recorded; in slices they are deltas.
-- Run once on a new database; indexes come later from indexes.sql.
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value
) WITHOUT ROWID;

-- A thread's time from its first record to its last (wall_dur) splits
-- into running (cpu_dur), blocked in blocking records (blocked_dur, by
-- kind in thread_blocking), idle (waiting for work: idle slices) and the
-- unexplained rest (off the CPU, no record says why); they add up to
-- wall_dur exactly (blocked and idle time that overlaps running time is
-- counted as running). NULL where the slices came with the trace.
-- CPU time a trace does not give (an atrace-only Perfetto trace, a btrace
-- 2.0 raw trace, an ART trace on the wall clock, a systrace without
-- sched_switch) is NULL, never 0, wherever it would show: slices.cpu_dur,
-- messages.cpu_dur and the CPU columns of calltree, methods, callers and
-- message_methods for every thread with such a slice; meta cpu_unknown
-- then says 'all' (no thread's CPU time is known) or 'some'. Meta no_alloc,
-- no_faults, no_csw (1): the trace records no allocations, page faults,
-- context switches (its format has none; their columns then read 0).
CREATE TABLE threads (
	tid             INTEGER PRIMARY KEY,  -- as recorded (Android: low 16 bits)
	name            TEXT,                 -- NULL when the dump names no thread
	is_main         INTEGER NOT NULL DEFAULT 0,
	wall_dur        INTEGER,
	cpu_dur         INTEGER,
	blocked_dur     INTEGER,
	idle_dur        INTEGER,
	unexplained_dur INTEGER,
	-- Off-CPU time by scheduler state (thread_states) inside the thread's
	-- top-level slices: NULL where the trace has no states for them.
	runnable_dur        INTEGER,   -- runnable and runnable (preempted): waiting for a CPU
	sleeping_dur        INTEGER,   -- sleeping (S)
	io_dur              INTEGER,   -- uninterruptible with io_wait = 1
	uninterruptible_dur INTEGER,   -- uninterruptible otherwise (D)
	pid                 INTEGER,   -- its process (processes), NULL when the trace names none
	slices              INTEGER    -- its slices, whether the slices table keeps them or not
);

-- The processes of the capture: one per input dump, or those a system
-- trace holds. Tids are unique across them (a collision is refused), so
-- every table keyed by tid reaches its process through threads.pid, and
-- frames are interned per process (frames.pid). The lead process is the
-- app's main one: the default report leads with it, meta describes it,
-- and its main thread is the one threads.is_main marks.
CREATE TABLE processes (
	pid       INTEGER PRIMARY KEY,
	name      TEXT,                 -- its main thread's name (Linux keeps the last 15 characters)
	source    TEXT,                 -- the input it came from
	format    TEXT,
	main_tid  INTEGER,
	is_lead   INTEGER NOT NULL DEFAULT 0,
	first_ts  INTEGER,              -- its records' span on the boot clock
	last_ts   INTEGER,
	samples   INTEGER NOT NULL DEFAULT 0,
	threads   INTEGER NOT NULL DEFAULT 0
);

-- Each input's own meta when several processes are imported together
-- (meta then holds the lead process's, and the capture's own keys).
CREATE TABLE process_meta (
	pid   INTEGER NOT NULL,
	key   TEXT NOT NULL,
	value,
	PRIMARY KEY (pid, key)
) WITHOUT ROWID;

CREATE TABLE thread_blocking (
	tid   INTEGER NOT NULL,
	kind  TEXT NOT NULL,       -- as in method_blocking
	count INTEGER NOT NULL,    -- records
	dur   INTEGER NOT NULL,    -- their wall time
	PRIMARY KEY (tid, kind)
) WITHOUT ROWID;

CREATE TABLE frames (
	id          INTEGER PRIMARY KEY,
	address     INTEGER,          -- ArtMethod* / code address, first seen
	name        TEXT NOT NULL,    -- full symbol text, retraced if asked
	return_type TEXT,
	class       TEXT,
	method      TEXT,
	params      TEXT,
	pid         INTEGER           -- the process whose stacks hold it
);

CREATE TABLE nodes (
	id        INTEGER PRIMARY KEY,
	parent_id INTEGER,            -- NULL for an outermost frame
	frame_id  INTEGER NOT NULL,
	depth     INTEGER NOT NULL    -- 0 for an outermost frame
);

CREATE TABLE samples (
	id            INTEGER PRIMARY KEY,  -- 1..n in file order
	tid           INTEGER NOT NULL,
	type          INTEGER NOT NULL,
	ts            INTEGER NOT NULL,     -- a waker record (17, 22, 23): the waiter's begin
	end_ts        INTEGER,              -- NULL for point samples
	cpu_ns        INTEGER,              -- NULL for a waker record: its CPU is end_cpu_ns
	end_cpu_ns    INTEGER,
	msg_id        INTEGER NOT NULL DEFAULT 0,
	node_id       INTEGER NOT NULL,     -- leaf node of the stack
	alloc_objects INTEGER NOT NULL DEFAULT 0,
	alloc_bytes   INTEGER NOT NULL DEFAULT 0,
	majflt        INTEGER NOT NULL DEFAULT 0,
	nvcsw         INTEGER NOT NULL DEFAULT 0,
	nivcsw        INTEGER NOT NULL DEFAULT 0
);

-- The argument of kTraceArg records (type 15), and the size in bytes of iOS
-- memory samples (type 103; 0 for a free), which are rare: kept aside so
-- every sample row carries one column less.
CREATE TABLE sample_args (
	sample_id INTEGER PRIMARY KEY,
	arg       INTEGER NOT NULL
);

CREATE TABLE slices (
	id            INTEGER PRIMARY KEY,
	tid           INTEGER NOT NULL,
	depth         INTEGER NOT NULL,
	parent_id     INTEGER,
	frame_id      INTEGER NOT NULL,
	ts            INTEGER NOT NULL,
	dur           INTEGER NOT NULL,
	cpu_dur       INTEGER DEFAULT 0,    -- NULL: the trace does not say (no scheduler data for it)
	self_dur      INTEGER NOT NULL DEFAULT 0,
	self_cpu_dur  INTEGER DEFAULT 0,    -- NULL with cpu_dur
	block_dur     INTEGER NOT NULL DEFAULT 0,
	msg_id        INTEGER NOT NULL DEFAULT 0,
	sample_count  INTEGER NOT NULL DEFAULT 0,
	alloc_objects INTEGER NOT NULL DEFAULT 0,
	alloc_bytes   INTEGER NOT NULL DEFAULT 0,
	majflt        INTEGER NOT NULL DEFAULT 0,
	nvcsw         INTEGER NOT NULL DEFAULT 0,
	nivcsw        INTEGER NOT NULL DEFAULT 0,
	type          INTEGER,              -- record type of the sample that opened it
	wakeup_tid    INTEGER,              -- thread that woke this wait (upstream WakeUpBy)
	gap_dur       INTEGER NOT NULL DEFAULT 0,  -- time since the thread's previous sample
	gap_cpu_dur   INTEGER NOT NULL DEFAULT 0,
	idle          INTEGER NOT NULL DEFAULT 0   -- 1: the thread waited for work: its own off-CPU time is idle
);

CREATE TABLE messages (
	tid     INTEGER NOT NULL,
	msg_id  INTEGER NOT NULL,
	ts      INTEGER NOT NULL,
	dur     INTEGER NOT NULL,
	cpu_dur INTEGER DEFAULT 0,             -- NULL: not in the trace
	block_dur INTEGER NOT NULL DEFAULT 0,  -- blocking records inside it
	idle_dur  INTEGER NOT NULL DEFAULT 0,  -- idle slices inside it
	alloc_bytes INTEGER NOT NULL DEFAULT 0,  -- allocated inside it
	PRIMARY KEY (tid, msg_id)
) WITHOUT ROWID;

CREATE TABLE blocking_edges (
	id              INTEGER PRIMARY KEY,
	waiter_tid      INTEGER NOT NULL,
	waiter_sample_id INTEGER,
	kind            TEXT NOT NULL,
	lock_id         INTEGER,
	ts              INTEGER NOT NULL,
	dur             INTEGER NOT NULL,
	waker_tid       INTEGER,
	waker_sample_id INTEGER,
	waker_ts        INTEGER,
	waker_node_id   INTEGER,
	waiter_node_id  INTEGER     -- the waiter's innermost frame where no sample gives it (a Perfetto trace's waits)
);

-- A client's binder call followed to the thread that served it: a dump's
-- binder record (type 2) in a capture of several processes (the binder
-- thread of another process running a transaction, Binder.execTransact,
-- sampled most in the wait: server_first_ts, server_last_ts and
-- server_samples are its samples inside the call), or a system trace's
-- binder_transaction and binder_transaction_received tracepoints with
-- --process all (server_first_ts: it received the call, server_last_ts:
-- it sent the reply). Its edge is in blocking_edges (kind binder, the
-- server the waker). why the reply was slow: busy (the server ran),
-- blocked (it blocked: its own blocking records, or sleeping and
-- uninterruptible states, blocked_dur of it), runnable (it waited for a
-- CPU), queued (no server thread took the call for most of it); NULL
-- for a oneway call, and for a call of a trace without the server's
-- scheduler states that was not queued (blocked_dur NULL too); server
-- NULL where no process of the capture was seen serving it.
CREATE TABLE binder_calls (
	id               INTEGER PRIMARY KEY,
	client_tid       INTEGER NOT NULL,
	client_sample_id INTEGER,    -- the dump's binder record (NULL: a system trace's call)
	ts               INTEGER NOT NULL,
	dur              INTEGER NOT NULL,
	oneway           INTEGER NOT NULL DEFAULT 0,
	server_pid       INTEGER,
	server_tid       INTEGER,
	server_first_ts  INTEGER,
	server_last_ts   INTEGER,
	server_samples   INTEGER,
	blocked_dur      INTEGER,
	why              TEXT
);

-- Work handed from one thread to another (iOS dispatch_async and async
-- samples): the enqueuing sample and when the target thread started it.
-- Not a wait, so not a blocking edge.
CREATE TABLE dispatches (
	id               INTEGER PRIMARY KEY,
	kind             TEXT NOT NULL,        -- dispatch, async
	source_tid       INTEGER NOT NULL,
	source_sample_id INTEGER NOT NULL,
	source_ts        INTEGER NOT NULL,
	source_node_id   INTEGER NOT NULL,     -- the enqueuing stack
	target_tid       INTEGER NOT NULL,
	target_ts        INTEGER NOT NULL      -- start of execution
);

-- Values over time that are not per-sample counters: iOS TimeSeriesModel
-- counters (cpu_usage, mem_usage in bytes) and Perfetto counter tracks
-- (as the trace gives them). track is the counter's name. Perfetto: a
-- counter track's values times its unit_multiplier, deltas summed where
-- it is incremental (per sequence), extra_counter_values included; a
-- track the trace leaves unnamed is named by its type (thread_time,
-- thread_instruction_count, counter), a thread's counter "NAME (tid N)".
-- atrace's C|pid|NAME|value is the process's counter "NAME (pid N)" (as
-- the systrace importer names it). Thread tracks' counter events are
-- "thread N".
CREATE TABLE counters (
	track TEXT NOT NULL,
	ts    INTEGER NOT NULL,
	value REAL NOT NULL
);

-- Slices on a track that is no thread's: iOS TimeSeriesModel slices
-- (hitch), Perfetto process, async and named tracks. Not call stacks, so
-- kept out of slices and attribution. Perfetto async slices (atrace
-- S|pid|NAME|cookie .. F|pid|NAME|cookie, G|pid|TRACK|NAME|cookie ..
-- H|pid|TRACK|cookie, legacy phases b/e and S/F by id) pair by cookie on
-- the process's track "NAME (pid N)" ("TRACK (pid N)"; legacy events of a
-- global id: "NAME"); depth is the number open on the track when it began; one never
-- ended ends at the trace's last event (diagnostic
-- perfetto_unfinished_async).
CREATE TABLE track_slices (
	track TEXT NOT NULL,
	name  TEXT NOT NULL,
	ts    INTEGER NOT NULL,
	dur   INTEGER NOT NULL,
	depth INTEGER NOT NULL DEFAULT 0
);

-- SurfaceFlinger's frames as a Perfetto trace's frame timeline gives them
-- (FrameTimelineEvent; `frames` holds stack frames): one row per expected
-- and actual display frame (SurfaceFlinger's work, kind expected_display,
-- actual_display) and surface frame (an app's, expected_surface,
-- actual_surface), from its start to its FrameEnd (dur NULL: never ended).
-- token: the frame's (a surface frame's own, a display frame's the one its
-- surface frames give as display_frame_token); jank_type the bitmask of
-- FrameTimelineEvent.JankType, jank, present_type and prediction_type
-- Perfetto's words for them (trace processor's actual_frame_timeline_slice);
-- what a start does not say is NULL (an expected frame's jank, present
-- type and the like). Imported only, for the frames work: nothing is
-- computed from them yet.
CREATE TABLE display_frames (
	kind                TEXT NOT NULL,
	ts                  INTEGER NOT NULL,
	dur                 INTEGER,
	pid                 INTEGER,
	token               INTEGER,
	display_frame_token INTEGER,
	layer_name          TEXT,
	present_type        TEXT,
	on_time_finish      INTEGER,
	gpu_composition     INTEGER,
	jank_type           INTEGER,
	jank                TEXT,
	prediction_type     TEXT,
	is_buffer           INTEGER
);

-- The main thread's display frames (engine/startup/frames.h): each UI
-- frame (Choreographer.doFrame, Choreographer#doFrame N) in time order, the
-- N of its name (vsync, NULL without), its main-thread span (ts, dur) and
-- its end (end_ts: its RenderThread draw's end where the trace has the
-- draw, draw_ts and draw_dur, else its own), the display's refresh period,
-- the vsync tick at or before its start (expected_ts) and its deadline one
-- period later; janky when it ended after the deadline, missed_vsyncs the
-- vsyncs it missed, and for a janky frame the cause: its methods by self
-- time not blocked, its blocking by kind with the holder of its longest
-- wait.
CREATE TABLE ui_frames (
	id            INTEGER PRIMARY KEY,
	tid           INTEGER NOT NULL,
	ts            INTEGER NOT NULL,
	vsync         INTEGER,
	dur           INTEGER NOT NULL,
	end_ts        INTEGER NOT NULL,
	period_ns     INTEGER NOT NULL,
	expected_ts   INTEGER NOT NULL,
	deadline_ts   INTEGER NOT NULL,
	janky         INTEGER NOT NULL,
	missed_vsyncs INTEGER NOT NULL,
	draw_ts       INTEGER,
	draw_dur      INTEGER,
	cause         TEXT
);

-- What filled the main thread's display frames (engine/startup/frames.c),
-- for the gate (lua/frames.lua's frames.method.* metrics): each method's
-- self time not blocked inside the frames, in every frame and in the
-- janky ones (of each janky frame, its 8 methods of the most self time).
CREATE TABLE ui_frame_methods (
	tid           INTEGER NOT NULL,
	frame_id      INTEGER NOT NULL,
	self_ns       INTEGER NOT NULL,
	janky_self_ns INTEGER NOT NULL,
	PRIMARY KEY (tid, frame_id)
) WITHOUT ROWID;

-- The main thread's blocked time inside its frames (each frame's doFrame),
-- in every frame and in the janky ones: by kind from its blocking records
-- (holder NULL), and by kind and holder from its waits (the innermost app
-- frame of the waker's stack; '(unknown)' where no record ended the wait).
CREATE TABLE ui_frame_blocking (
	tid      INTEGER NOT NULL,
	kind     TEXT NOT NULL,
	holder   TEXT,
	ns       INTEGER NOT NULL,
	janky_ns INTEGER NOT NULL
);

-- Points in time a trace marks, without a duration: Perfetto TrackEvent
-- instants (TYPE_INSTANT, legacy phases i/I/n) and atrace I|pid|NAME on a
-- thread (tid set, track NULL; Perfetto: the app's threads only; systrace:
-- every thread), atrace
-- N|pid|TRACK|NAME (track "TRACK (pid N)") and instants on tracks of no
-- thread (track set, tid NULL).
CREATE TABLE instants (
	tid   INTEGER,
	track TEXT,
	name  TEXT NOT NULL,
	ts    INTEGER NOT NULL
);

-- A thread's scheduling states, as a systrace's sched_switch, sched_wakeup
-- (or sched_waking) and sched_blocked_reason events give them, from the
-- thread's first such event to the trace's end; for the threads with
-- slices (every thread, in a trace with none). state: running (on cpu), runnable (waiting for a CPU; waker_tid
-- woke it, when a wakeup made it runnable), sleeping, uninterruptible
-- (io_wait and blocked_function from sched_blocked_reason), or a rarer
-- kernel state (stopped, traced, dead, zombie, parked, idle, ...).
CREATE TABLE thread_states (
	tid              INTEGER NOT NULL,
	ts               INTEGER NOT NULL,
	dur              INTEGER NOT NULL,
	state            TEXT NOT NULL,
	cpu              INTEGER,
	waker_tid        INTEGER,
	io_wait          INTEGER,
	blocked_function TEXT
);

-- Slices of a Perfetto trace named "binder transact[iface:code]" or
-- "[iface:method|code]" (btrace 2.0), parsed.
CREATE TABLE binder_transactions (
	slice_id  INTEGER PRIMARY KEY,
	tid       INTEGER NOT NULL,
	ts        INTEGER NOT NULL,
	dur       INTEGER NOT NULL,
	interface TEXT NOT NULL,
	method    TEXT,                 -- NULL in the runtime form [iface:code]
	code      INTEGER
);

-- Slices named "pthread_create tid=N": which thread created which.
CREATE TABLE thread_creates (
	slice_id    INTEGER PRIMARY KEY,
	tid         INTEGER NOT NULL,
	ts          INTEGER NOT NULL,
	created_tid INTEGER NOT NULL
);

CREATE TABLE diagnostics (
	code   TEXT PRIMARY KEY,
	count  INTEGER NOT NULL,
	detail TEXT
) WITHOUT ROWID;

-- Names of Android record types (format spec §4.3), for readable queries.
CREATE TABLE record_types (
	type INTEGER PRIMARY KEY,
	name TEXT NOT NULL
);
INSERT INTO record_types VALUES
	(1, 'kInvalid'), (2, 'kBinder'), (3, 'kJankMessage'), (4, 'kCustom'),
	(5, 'kTraceStack'), (6, 'kWait'), (7, 'kPark'), (8, 'kMonitor'),
	(9, 'kObjectAllocation'), (10, 'kJNITrampoline'), (11, 'kGC'), (12, 'kMutex'),
	(13, 'kDispatchVsync'), (14, 'kSyncAndDrawFrame'), (15, 'kTraceArg'), (16, 'kFlush'),
	(17, 'kUnpark'), (18, 'kScene'), (19, 'kGCInternal'), (20, 'kLoadLibrary'),
	(21, 'kNativePollOnce'), (22, 'kNotify'), (23, 'kUnlock'),
	-- iOS database samples (importers/ios_int.h)
	(101, 'ios_cpu'), (102, 'ios_cpu_interval'), (103, 'ios_mem'), (104, 'ios_date'),
	(105, 'ios_dispatch'), (106, 'ios_lock'), (107, 'ios_lock_wait'), (108, 'ios_async'),
	(109, 'ios_profile'), (110, 'ios_time_range');

-- Attribution (engine/profile.h): what the slices add up to. "self" is a
-- frame's own time or count, "incl" includes its callees; in methods,
-- nested activations of a method count once. blocked: wall time of
-- blocking records (monitor, wait, park, GC, binder, loadLibrary).
-- idle: the off-CPU time of idle slices (a thread waiting for work, as
-- the idle policy finds it: the loop's wait for a message, a worker's
-- for a task), which the wall values (ns) leave out: a path's slices
-- took ns + idle_ns of wall time.
CREATE TABLE calltree (
	id                 INTEGER PRIMARY KEY,  -- a call path of one thread
	tid                INTEGER NOT NULL,
	parent_id          INTEGER,              -- NULL for an outermost frame
	frame_id           INTEGER NOT NULL,
	depth              INTEGER NOT NULL,
	self_ns            INTEGER NOT NULL, incl_ns            INTEGER NOT NULL,
	self_cpu_ns        INTEGER,          incl_cpu_ns        INTEGER,           -- NULL: not in the trace
	self_blocked_ns    INTEGER NOT NULL, incl_blocked_ns    INTEGER NOT NULL,
	self_alloc_bytes   INTEGER NOT NULL, incl_alloc_bytes   INTEGER NOT NULL,
	self_alloc_objects INTEGER NOT NULL, incl_alloc_objects INTEGER NOT NULL,
	self_majflt        INTEGER NOT NULL, incl_majflt        INTEGER NOT NULL,
	self_nvcsw         INTEGER NOT NULL, incl_nvcsw         INTEGER NOT NULL,
	self_nivcsw        INTEGER NOT NULL, incl_nivcsw        INTEGER NOT NULL,
	self_idle_ns       INTEGER NOT NULL, incl_idle_ns       INTEGER NOT NULL,
	idle               INTEGER NOT NULL      -- 1: its slices are idle slices
);

CREATE TABLE methods (
	tid                INTEGER NOT NULL,
	frame_id           INTEGER NOT NULL,
	self_ns            INTEGER NOT NULL, incl_ns            INTEGER NOT NULL,
	self_cpu_ns        INTEGER,          incl_cpu_ns        INTEGER,           -- NULL: not in the trace
	self_blocked_ns    INTEGER NOT NULL, incl_blocked_ns    INTEGER NOT NULL,
	self_alloc_bytes   INTEGER NOT NULL, incl_alloc_bytes   INTEGER NOT NULL,
	self_alloc_objects INTEGER NOT NULL, incl_alloc_objects INTEGER NOT NULL,
	self_majflt        INTEGER NOT NULL, incl_majflt        INTEGER NOT NULL,
	self_nvcsw         INTEGER NOT NULL, incl_nvcsw         INTEGER NOT NULL,
	self_nivcsw        INTEGER NOT NULL, incl_nivcsw        INTEGER NOT NULL,
	self_idle_ns       INTEGER NOT NULL, incl_idle_ns       INTEGER NOT NULL,
	-- Its self time by the thread's scheduler state (thread_states), where
	-- the trace has them: NULL where no state covers its self time. With
	-- its running time they add up to self_ns where the states cover it.
	self_runnable_ns        INTEGER,   -- runnable and runnable (preempted): waiting for a CPU
	self_sleeping_ns        INTEGER,   -- sleeping (S)
	self_io_ns              INTEGER,   -- uninterruptible with io_wait = 1
	self_uninterruptible_ns INTEGER,   -- uninterruptible otherwise (D)
	PRIMARY KEY (tid, frame_id)
) WITHOUT ROWID;

-- Blocking records per method and kind: self where the method is the
-- innermost frame of the record's stack, incl where it is anywhere on it.
CREATE TABLE method_blocking (
	tid        INTEGER NOT NULL,
	frame_id   INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	self_count INTEGER NOT NULL,   -- records
	self_ns    INTEGER NOT NULL,
	incl_count INTEGER NOT NULL,
	incl_ns    INTEGER NOT NULL,
	PRIMARY KEY (tid, frame_id, kind)
) WITHOUT ROWID;

-- Bottom-up, first level: a method's self values split by its caller.
CREATE TABLE callers (
	tid                INTEGER NOT NULL,
	frame_id           INTEGER NOT NULL,
	caller_frame_id    INTEGER NOT NULL,     -- 0: called by no frame (outermost)
	self_ns            INTEGER NOT NULL,
	self_cpu_ns        INTEGER,              -- NULL: not in the trace
	self_blocked_ns    INTEGER NOT NULL,
	self_alloc_bytes   INTEGER NOT NULL,
	self_alloc_objects INTEGER NOT NULL,
	self_majflt        INTEGER NOT NULL,
	self_nvcsw         INTEGER NOT NULL,
	self_nivcsw        INTEGER NOT NULL,
	self_idle_ns       INTEGER NOT NULL,
	PRIMARY KEY (tid, frame_id, caller_frame_id)
) WITHOUT ROWID;

-- Each method's self time in a thread's first `messages` Looper messages,
-- for the three largest powers of two (from 32) the thread has: a longer
-- capture of the same build holds more messages, and later ones differ
-- (another mix, warm caches), so runs are compared over the first
-- messages they all have (lua/gate.lua, compare).
CREATE TABLE window_methods (
	tid         INTEGER NOT NULL,
	messages    INTEGER NOT NULL,
	frame_id    INTEGER NOT NULL,
	self_ns     INTEGER NOT NULL,
	self_cpu_ns INTEGER,            -- NULL: not in the trace
	PRIMARY KEY (tid, messages, frame_id)
) WITHOUT ROWID;

-- The top methods (by self time) of each thread's longest messages.
CREATE TABLE message_methods (
	tid         INTEGER NOT NULL,
	msg_id      INTEGER NOT NULL,
	rank        INTEGER NOT NULL,   -- 1 = most self time
	frame_id    INTEGER NOT NULL,
	self_ns     INTEGER NOT NULL,
	self_cpu_ns INTEGER,            -- NULL: not in the trace
	incl_ns     INTEGER NOT NULL,
	incl_cpu_ns INTEGER,
	PRIMARY KEY (tid, msg_id, rank)
) WITHOUT ROWID;

-- The app start (engine/startup/startup.h): where it begins and ends, how
-- each boundary was found, and what the main thread did in each phase. No
-- rows when the trace shows no start. Phases: bind_application,
-- content_providers, application_create, activity_launch, activity_create,
-- activity_start, activity_resume, first_frame, fully_drawn, and startup
-- (the whole window: ts to the end of system_server's launch slice where
-- that began it, as Perfetto's android_startups; else ts to end_ts).
CREATE TABLE startup (
	kind       TEXT NOT NULL,      -- cold, warm, hot
	tid        INTEGER NOT NULL,   -- the app's main thread
	package    TEXT,               -- the app's package (its Application class's)
	ts         INTEGER NOT NULL,   -- process start (cold), launch (warm: launchingActivity#N or
	                               -- launching: where the trace has them), resume (hot)
	end_ts     INTEGER,            -- the first frame after the launch on screen: the end of its
	                               -- RenderThread draw (DrawFrame N), else its own; NULL: none
	ttid_ns    INTEGER,            -- time to initial display: end_ts - ts
	ttfd_ns    INTEGER,            -- time to full display: to the draw of the first frame to end
	                               -- after reportFullyDrawn (no draws: to the call); NULL: none
	source     TEXT NOT NULL,      -- how ts was found (a frame or slice name)
	end_source TEXT,               -- how end_ts was found
	sample_interval_ns INTEGER     -- how finely the main thread's samples in the window place a
	                               -- method's bounds: the gap between samples (from a duration
	                               -- record's end) that half of the time between them lies in
	                               -- gaps no longer than; NULL: exact slices, or too few samples
);

CREATE TABLE startup_phases (
	phase          TEXT NOT NULL,
	ts             INTEGER NOT NULL,
	dur            INTEGER NOT NULL,
	source         TEXT NOT NULL,      -- the frame or slice it was found by
	exact          INTEGER NOT NULL,   -- 1: a trace's own bounds; 0: within sampling resolution
	cpu_ns         INTEGER,            -- the main thread in it: running (the scheduler's where its states cover it),
	blocked_ns     INTEGER,            -- in blocking records,
	idle_ns        INTEGER,            -- idle,
	unexplained_ns INTEGER,            -- the rest (they add up to dur)
	-- The main thread's states in the window (thread_states), by class:
	-- NULL where no state of it covers the window. With cpu_ns (its running
	-- state) they add up to dur where the states cover the window.
	runnable_ns        INTEGER,        -- runnable and runnable (preempted): waiting for a CPU
	sleeping_ns        INTEGER,        -- sleeping (S)
	io_ns              INTEGER,        -- uninterruptible with io_wait = 1
	uninterruptible_ns INTEGER         -- uninterruptible otherwise (D)
);

-- Per phase, the main thread's top ten methods by self CPU time in it; for
-- the whole window ('startup'), every method with own time in it. A trace
-- without CPU time ranks them by self wall time, self_cpu_ns NULL.
CREATE TABLE startup_methods (
	phase       TEXT NOT NULL,
	rank        INTEGER NOT NULL,
	frame_id    INTEGER NOT NULL,
	self_cpu_ns INTEGER,
	self_ns     INTEGER NOT NULL,
	incl_ns     INTEGER              -- the window's: inclusive wall time in it; NULL for a phase
);

-- Per phase, the main thread's blocked time by kind (its records'
-- overlap with the phase).
CREATE TABLE startup_blocking (
	phase TEXT NOT NULL,
	kind  TEXT NOT NULL,
	count INTEGER NOT NULL,
	dur   INTEGER NOT NULL
);

-- The critical path behind each main-thread wait with a known waker
-- (engine/recon/chain.c): hop 1 is the waker over the wait; hop n+1 is the
-- thread that ended hop n's own blocking, over the part of the wait that
-- blocking covers, where a record names it (a waker record or a lock id).
CREATE TABLE wait_chain (
	edge_id     INTEGER NOT NULL,   -- blocking_edges.id
	hop         INTEGER NOT NULL,   -- 1: the waker; 2: what hop 1 waited on; ...
	tid         INTEGER NOT NULL,
	ts          INTEGER NOT NULL,   -- the interval this hop covers
	dur         INTEGER NOT NULL,
	blocked_kind TEXT,              -- the hop thread's own blocking in it (longest kind)
	blocked_ns  INTEGER NOT NULL DEFAULT 0,
	node_id     INTEGER,            -- its stack while blocked (or its last sample in the interval)
	PRIMARY KEY (edge_id, hop)
) WITHOUT ROWID;

-- Each hop's top methods: inclusive time of the hop thread's activations
-- overlapping the hop's interval (nested activations of a frame once).
CREATE TABLE wait_chain_methods (
	edge_id    INTEGER NOT NULL,
	hop        INTEGER NOT NULL,
	rank       INTEGER NOT NULL,    -- 1 = most overlap; ties: leaf-most first
	frame_id   INTEGER NOT NULL,
	overlap_ns INTEGER NOT NULL,
	PRIMARY KEY (edge_id, hop, rank)
) WITHOUT ROWID;
