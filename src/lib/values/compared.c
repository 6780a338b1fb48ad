#include "values/compared.h"
#include "values/normalise.h"
#include "base/json.h"
#include "base/textout.h"

int record_compared(const char *norm_json, record_number_fn *is_number, void *ctx,
		    sbuf *out)
{
	json_flat obj;
	sbuf number;
	size_t i;

	if (json_flat_parse(&obj, norm_json))
		return -1;
	sbuf_init(&number);
	sbuf_addc(out, '{');
	for (i = 0; i < obj.n; i++) {
		const json_pair *p = &obj.pairs[i];

		if (i)
			sbuf_addc(out, ',');
		textout_json_string(out, p->key, strlen(p->key));
		sbuf_addc(out, ':');
		sbuf_reset(&number);
		if (is_number(ctx, p->key) &&
		    norm_number_text_compared(p->value, p->len, &number) == NORM_OK)
			textout_json_utf8(out, number.data, number.len);
		else
			textout_json_utf8(out, p->value, p->len);
	}
	sbuf_addc(out, '}');
	sbuf_release(&number);
	json_flat_release(&obj);
	return 0;
}
