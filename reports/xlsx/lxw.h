/*
 * libxlsxwriter, loaded when the first workbook is started (bt_lxw_load)
 * rather than linked: with what it needs (minizip, libcrypto) it cost
 * every run ~4 ms of mapping and relocating, a seventh of a small
 * analysis, and only xlsx outputs call it. The call sites keep the
 * library's names: each is a macro for the pointer the loader filled.
 * A function the writers start to call goes into BT_LXW_FUNCS.
 */
#ifndef BT_LXW_H
#define BT_LXW_H

#include <xlsxwriter.h>

#include "engine/base/err.h"

#define BT_LXW_FUNCS(X) \
	X(chart_add_series) X(chart_axis_set_crossing_max) X(chart_axis_set_name) \
	X(chart_axis_set_name_range) X(chart_axis_set_num_format) X(chart_axis_set_reverse) \
	X(chart_legend_set_position) X(chart_series_set_categories) X(chart_series_set_labels) \
	X(chart_series_set_labels_percentage) X(chart_series_set_name) X(chart_series_set_name_range) \
	X(chart_series_set_values) X(chart_title_set_name) X(chart_title_set_name_range) \
	X(format_set_align) X(format_set_bg_color) X(format_set_bold) X(format_set_bottom) \
	X(format_set_font_color) X(format_set_font_size) X(format_set_indent) X(format_set_num_format) \
	X(format_set_text_wrap) X(format_set_underline) X(lxw_strerror) X(workbook_add_chart) \
	X(workbook_add_format) X(workbook_add_worksheet) X(workbook_close) X(workbook_new) \
	X(workbook_set_properties) X(worksheet_autofilter) X(worksheet_conditional_format_range) \
	X(worksheet_fit_to_pages) X(worksheet_freeze_panes) X(worksheet_insert_chart_opt) \
	X(worksheet_merge_range) X(worksheet_outline_settings) X(worksheet_print_area) \
	X(worksheet_repeat_rows) X(worksheet_set_column) X(worksheet_set_column_opt) \
	X(worksheet_set_footer) X(worksheet_set_landscape) X(worksheet_set_margins) \
	X(worksheet_set_paper) X(worksheet_set_row) X(worksheet_set_row_opt) \
	X(worksheet_write_comment) X(worksheet_write_number) X(worksheet_write_string) \
	X(worksheet_write_url_opt)

struct bt_lxw {
#define BT_LXW_FIELD(f) __typeof__(f) *f;
	BT_LXW_FUNCS(BT_LXW_FIELD)
#undef BT_LXW_FIELD
};

extern struct bt_lxw bt_lxw;

/* Load the library and fill bt_lxw, once; an error names the library. */
int bt_lxw_load(struct bt_err *err);

#ifndef BT_LXW_LOADER
#define chart_add_series (bt_lxw.chart_add_series)
#define chart_axis_set_crossing_max (bt_lxw.chart_axis_set_crossing_max)
#define chart_axis_set_name (bt_lxw.chart_axis_set_name)
#define chart_axis_set_name_range (bt_lxw.chart_axis_set_name_range)
#define chart_axis_set_num_format (bt_lxw.chart_axis_set_num_format)
#define chart_axis_set_reverse (bt_lxw.chart_axis_set_reverse)
#define chart_legend_set_position (bt_lxw.chart_legend_set_position)
#define chart_series_set_categories (bt_lxw.chart_series_set_categories)
#define chart_series_set_labels (bt_lxw.chart_series_set_labels)
#define chart_series_set_labels_percentage (bt_lxw.chart_series_set_labels_percentage)
#define chart_series_set_name (bt_lxw.chart_series_set_name)
#define chart_series_set_name_range (bt_lxw.chart_series_set_name_range)
#define chart_series_set_values (bt_lxw.chart_series_set_values)
#define chart_title_set_name (bt_lxw.chart_title_set_name)
#define chart_title_set_name_range (bt_lxw.chart_title_set_name_range)
#define format_set_align (bt_lxw.format_set_align)
#define format_set_bg_color (bt_lxw.format_set_bg_color)
#define format_set_bold (bt_lxw.format_set_bold)
#define format_set_bottom (bt_lxw.format_set_bottom)
#define format_set_font_color (bt_lxw.format_set_font_color)
#define format_set_font_size (bt_lxw.format_set_font_size)
#define format_set_indent (bt_lxw.format_set_indent)
#define format_set_num_format (bt_lxw.format_set_num_format)
#define format_set_text_wrap (bt_lxw.format_set_text_wrap)
#define format_set_underline (bt_lxw.format_set_underline)
#define lxw_strerror (bt_lxw.lxw_strerror)
#define workbook_add_chart (bt_lxw.workbook_add_chart)
#define workbook_add_format (bt_lxw.workbook_add_format)
#define workbook_add_worksheet (bt_lxw.workbook_add_worksheet)
#define workbook_close (bt_lxw.workbook_close)
#define workbook_new (bt_lxw.workbook_new)
#define workbook_set_properties (bt_lxw.workbook_set_properties)
#define worksheet_autofilter (bt_lxw.worksheet_autofilter)
#define worksheet_conditional_format_range (bt_lxw.worksheet_conditional_format_range)
#define worksheet_fit_to_pages (bt_lxw.worksheet_fit_to_pages)
#define worksheet_freeze_panes (bt_lxw.worksheet_freeze_panes)
#define worksheet_insert_chart_opt (bt_lxw.worksheet_insert_chart_opt)
#define worksheet_merge_range (bt_lxw.worksheet_merge_range)
#define worksheet_outline_settings (bt_lxw.worksheet_outline_settings)
#define worksheet_print_area (bt_lxw.worksheet_print_area)
#define worksheet_repeat_rows (bt_lxw.worksheet_repeat_rows)
#define worksheet_set_column (bt_lxw.worksheet_set_column)
#define worksheet_set_column_opt (bt_lxw.worksheet_set_column_opt)
#define worksheet_set_footer (bt_lxw.worksheet_set_footer)
#define worksheet_set_landscape (bt_lxw.worksheet_set_landscape)
#define worksheet_set_margins (bt_lxw.worksheet_set_margins)
#define worksheet_set_paper (bt_lxw.worksheet_set_paper)
#define worksheet_set_row (bt_lxw.worksheet_set_row)
#define worksheet_set_row_opt (bt_lxw.worksheet_set_row_opt)
#define worksheet_write_comment (bt_lxw.worksheet_write_comment)
#define worksheet_write_number (bt_lxw.worksheet_write_number)
#define worksheet_write_string (bt_lxw.worksheet_write_string)
#define worksheet_write_url_opt (bt_lxw.worksheet_write_url_opt)
#endif

#endif
