// The content-decoder suite (test/suites/content-decoder.ts) inside workerd, where gzip members are split by hand.
import { describeContentDecoder } from '../suites/content-decoder';

describeContentDecoder('workerd');
