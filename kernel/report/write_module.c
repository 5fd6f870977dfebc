/* Benchmark files (kernel/load/): what became of each, one "module" record:
 * {"type":"module","origin":..,"accepted":true|false,"name":..,"mode":32,
 *  "body_bytes":N,"init_bytes":N,"code_bytes":N,"replaced":false,
 *  "evicted":"snip/x"|null}   accepted (evicted: the loaded benchmark whose slot it took)
 * {"type":"module","origin":..,"accepted":false,"name":..|null,"reason":..} rejected
 * (its readable line: formats/text.c) */
#include "record/log.h"
#include "write.h"

void write_module(const struct module_verdict *v)
{
    rec_open("module");
    rec_str("origin", v->origin);
    rec_bool("accepted", v->accepted);
    if (v->name[0])
        rec_str("name", v->name);
    else
        rec_null("name");
    if (v->accepted) {
        rec_u64("mode", v->mode);
        rec_u64("body_bytes", v->body_len);
        rec_u64("init_bytes", v->init_len);
        rec_u64("code_bytes", v->size);
        rec_bool("replaced", v->replaced);
        if (v->evicted[0])
            rec_str("evicted", v->evicted);
        else
            rec_null("evicted");
    } else {
        rec_str("reason", v->why);
    }
    rec_close();
}
