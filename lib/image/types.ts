export const EMOTIONS = ['Angry', 'Disgust', 'Fear', 'Happy', 'Sad', 'Surprise', 'Neutral'] as const

export const COCO_LABELS = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush'
]

export type Op = 'facial_emotion' | 'object_recognizer' | 'nsfw'
export interface Box {
  x: number
  y: number
  width: number
  height: number
}
export interface TagScore {
  tag: string
  score: number
}
export interface FaceResult {
  facial_emotion: TagScore[]
  faces: Array<{ box: Box; facial_emotion: TagScore[] }>
}
export interface ObjectResult {
  output: TagScore[]
  boxes: Array<{ tag: string; score: number; box: Box }>
}
/** prob: the probability of the answer given; classes: nsfwjs's five class probabilities */
export interface NsfwResult {
  output: 'safe to open at work' | 'not safe to open at work'
  prob: number
  classes: Array<{ className: string; probability: number }>
}
export type ImageResult = FaceResult | ObjectResult | NsfwResult
export interface ImageJob {
  id: number
  op: Op
  bytes: Uint8Array
}
/** `tensors`: live tensors in the worker after the job (a leak shows as growth) */
export type ImageReply = (
  | { id: number; result: ImageResult }
  | { id: number; error: { kind: 'unsupported' | 'too-large' | 'internal'; message: string } }
) & { tensors: number }
