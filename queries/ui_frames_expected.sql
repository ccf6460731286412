-- ui_frames_expected: the expected frames of a Perfetto frame timeline (the
-- app's own, surface frames), whose length is the display's period.
-- -> dur INTEGER
SELECT dur FROM display_frames WHERE kind = 'expected_surface' AND dur > 0
