# The options of the word-order trainer (text_cnn.py --help). Their defaults train the abuse model; the
# other models' recipes (training/recipes/*.ts through training/trainers/text-cnn.ts) pass their own.
import argparse


def parse(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--vectors', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seed', type=int, default=23)
    ap.add_argument('--epochs', type=int, default=8)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--batch', type=int, default=64)
    ap.add_argument('--dim', type=int, default=32, help='embedding bag width (0: none)')
    ap.add_argument('--filters', type=int, default=64, help='filters per width (0: no convolution)')
    ap.add_argument('--widths', default='2,3,4')
    ap.add_argument('--proj', type=int, default=0,
                    help='a linear projection of the token vectors to this many dimensions before the convolution '
                         '(0: none)')
    ap.add_argument('--dropout', type=float, default=0.3)
    ap.add_argument('--scale', type=float, default=0.2, help='word vectors are multiplied by this')
    ap.add_argument('--train-sets', default='olid,ordinary', help='sets whose labels train the served head')
    ap.add_argument('--tasks', default='',
                    help='heads of their own: olid, hate (each trained on its set; ordinary texts negative)')
    ap.add_argument('--hate-weight', type=float, default=1.0, help='weight of the hate rows in the served head')
    ap.add_argument('--without-fold', action='store_true', help='leave the held-out fifth of the training rows out')
    ap.add_argument('--wd', type=float, default=0.0)
    ap.add_argument('--threads', type=int, default=1)
    # options for other models than abuse (their defaults train abuse as before)
    ap.add_argument('--negatives', default='ordinary', help='sets whose rows are negatives for every head')
    ap.add_argument('--row-weights', action='store_true',
                    help="multiply each row's weight by weight.bin (training/trainers/text-cnn-rows.ts writes it "
                         'for weighted rows)')
    ap.add_argument('--report', default='',
                    help='sets reported after each epoch (default: olid-val, hate-val, ordinary-val): share called '
                         'positive, F1 of the positive class, accuracy')
    ap.add_argument('--stop-after', type=int, default=0,
                    help='stop after this many epochs of the --epochs schedule (0: all)')
    ap.add_argument('--classes', type=int, default=0,
                    help='a served head of this many labels (the label column is the label index; -1: no label '
                         'fits) instead of one logit; no --tasks')
    ap.add_argument('--loss', default='softmax', choices=['softmax', 'sigmoid'],
                    help='with --classes: one softmax over the labels, or a sigmoid per label (independent scores)')
    ap.add_argument('--balance', action='store_true',
                    help='with --classes: each label weighs alike in the loss (at most 10x)')
    ap.add_argument('--balance-skip', default='',
                    help='with --balance: these training sets (comma-separated) are left out of the label masses '
                         'and keep their row weights, an addition on top of the balanced rest')
    ap.add_argument('--bag-lr', type=float, default=0, help="the n-gram bag's learning rate (0: --lr)")
    ap.add_argument('--mean-hidden', type=int, default=0,
                    help="the text's word-vector input (vec.bin, lib/text/bag/sentence-input.ts) through this many "
                         'ReLU units, beside the other parts (0: none)')
    args = ap.parse_args(argv)
    if args.classes and args.tasks:
        raise SystemExit('--classes takes no --tasks')
    return args
