/* SPDX-License-Identifier: BSD-3-Clause
 * Keys, prompts (typed on the status line while the screen keeps
 * refreshing) and the control requests they send.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ctl_client.h"
#include "curses.h"
#include "top.h"

#define KEY_TAB '\t'
#define KEY_ESC 27

static void
send_op(struct top *t, uint32_t op, int64_t value)
{
	struct dp_ctl_rep rep;

	top_status(t, MSG_INFO, "%s: waiting for the engine...", dp_ctl_op_name(op));
	top_draw(t);
	if (dp_ctl_send(op, value, &rep, TOP_CTL_TIMEOUT_MS) != 0)
		top_status(t, MSG_ERR, "%s: %s", dp_ctl_op_name(op), rep.msg);
	else if (rep.status == DP_CTL_OK)
		top_status(t, MSG_OK, "accepted: %s", rep.msg);
	else
		top_status(t, MSG_ERR, "refused: %s", rep.msg);
}

static void
step_cps(struct top *t, int up)
{
	uint64_t cur = t->shm->ctl.target_cps, next;

	if (up) {
		next = (uint64_t)((double)cur * 1.1 + 0.5);
		if (next <= cur)
			next = cur + 1;
	} else {
		next = (uint64_t)((double)cur * 0.9 + 0.5);
		if (next >= cur && cur > 0)
			next = cur - 1;
	}
	if (next < 1)
		next = 1;
	send_op(t, DP_OP_SET_CPS, (int64_t)next);
}

static void
submit(struct top *t)
{
	const char *in = t->input;
	uint64_t v;

	while (isspace((unsigned char)*in))
		in++;
	if (*in == '\0') {
		top_status(t, MSG_INFO, "cancelled");
		return;
	}
	if (t->prompt == PROMPT_CPS) {
		if (dp_parse_number(in, &v) != 0 || v == 0 || v > INT64_MAX)
			top_status(t, MSG_ERR, "not a CPS value: '%s' (e.g. 200k)", in);
		else
			send_op(t, DP_OP_SET_CPS, (int64_t)v);
		return;
	}
	/* Duration: a sign makes it relative to the current end. */
	if ((*in == '+' || *in == '-') && dp_parse_duration_us(in + 1, &v) == 0 && v <= INT64_MAX)
		send_op(t, DP_OP_ADD_DURATION, *in == '-' ? -(int64_t)v : (int64_t)v);
	else if (*in != '+' && *in != '-' && dp_parse_duration_us(in, &v) == 0 && v <= INT64_MAX)
		send_op(t, DP_OP_SET_DURATION, (int64_t)v);
	else
		top_status(t, MSG_ERR, "not a duration: '%s' (e.g. +5s, -5s, 2m)", in);
}

static void
prompt_key(struct top *t, int ch)
{
	enum top_prompt p = t->prompt;

	if (p == PROMPT_STOP) {
		t->prompt = PROMPT_NONE;
		if (ch == 'y' || ch == 'Y')
			send_op(t, DP_OP_STOP, 0);
		else
			top_status(t, MSG_INFO, "stop cancelled");
		return;
	}
	if (ch == KEY_ESC) {
		t->prompt = PROMPT_NONE;
		top_status(t, MSG_INFO, "cancelled");
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		t->input[t->input_len] = '\0';
		submit(t);
		t->prompt = PROMPT_NONE; /* after submit: it reads the prompt kind */
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (t->input_len > 0)
			t->input_len--;
	} else if (ch >= 0x20 && ch < 0x7f && t->input_len < sizeof(t->input) - 1) {
		t->input[t->input_len++] = (char)ch;
	}
}

static void
prompt_open(struct top *t, enum top_prompt p)
{
	t->prompt = p;
	t->input_len = 0;
	t->input[0] = '\0';
}

void
keys_handle(struct top *t, int ch)
{
	if (ch == KEY_RESIZE || ch == ERR)
		return;
	if (t->prompt != PROMPT_NONE) {
		prompt_key(t, ch);
		return;
	}
	if (t->help && ch != 'q' && ch != 'Q') {
		t->help = 0;
		return;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		t->quit = 1;
		break;
	case 'p':
	case 'P':
		send_op(t, t->shm->ctl.paused ? DP_OP_RESUME : DP_OP_PAUSE, 0);
		break;
	case '+':
	case '=':
		step_cps(t, 1);
		break;
	case '-':
	case '_':
		step_cps(t, 0);
		break;
	case 'c':
	case 'C':
		prompt_open(t, PROMPT_CPS);
		break;
	case 'd':
	case 'D':
		prompt_open(t, PROMPT_DURATION);
		break;
	case 's':
	case 'S':
		prompt_open(t, PROMPT_STOP);
		break;
	case 'h':
	case 'H':
	case '?':
		t->help = 1;
		break;
	case KEY_TAB:
	case 'v':
	case 'V':
		t->view = (enum top_view)((t->view + 1) % VIEW__COUNT);
		break;
	case KEY_BTAB:
		t->view = (enum top_view)((t->view + VIEW__COUNT - 1) % VIEW__COUNT);
		break;
	case '1':
	case '2':
	case '3':
	case '4':
		t->view = (enum top_view)(ch - '1');
		break;
	default:
		top_status(t, MSG_INFO, "unknown key (h for help)");
		break;
	}
}
