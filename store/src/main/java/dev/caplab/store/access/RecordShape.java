package dev.caplab.store.access;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * A record type's components as one array and back: {@link #values} is {@code new Object[] {r.a(), r.b(), ...}}
 * and {@link #make} {@code new R((A) v[0], (B) v[1], ...)}, spun once per record type as a hidden class, so a row
 * costs what hand-written code costs: direct accessor and constructor calls the JIT inlines, primitives boxed and
 * unboxed as a varargs call would.
 */
interface RecordShape {

    /** {@code java.lang.Record}, the parameter and result type of the methods spun. */
    ClassDesc RECORD = ClassDesc.of("java.lang.Record");

    /** The record's components in declared order, primitives boxed. */
    Object[] values(Record record);

    /** The record made by its canonical constructor from {@code values}, in declared order. */
    Record make(Object[] values);

    /** The shape of {@code type}, a record whose class, accessors and canonical constructor the store can access. */
    static RecordShape of(Class<? extends Record> type) {
        RecordComponent[] components = type.getRecordComponents();
        requireAccessible(type, components);
        ClassDesc record = type.describeConstable().orElseThrow();
        ClassDesc shape = ClassDesc.of(RecordShape.class.getPackageName() + ".RecordShape$" + type.getSimpleName());
        MethodTypeDesc constructor = MethodTypeDesc.of(ConstantDescs.CD_void, Arrays.stream(components)
                .map(c -> c.getType().describeConstable().orElseThrow()).toArray(ClassDesc[]::new));
        byte[] bytes = ClassFile.of().build(shape, cb -> cb
                .withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                .withInterfaceSymbols(RecordShape.class.describeConstable().orElseThrow())
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, b -> b
                        .aload(0).invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME,
                                ConstantDescs.MTD_void).return_())
                .withMethodBody("values", MethodTypeDesc.of(ConstantDescs.CD_Object.arrayType(),
                        RECORD), ClassFile.ACC_PUBLIC, b -> {
                    b.aload(1).checkcast(record).astore(2);
                    b.loadConstant(components.length).anewarray(ConstantDescs.CD_Object);
                    for (int i = 0; i < components.length; i++) {
                        Class<?> t = components[i].getType();
                        b.dup().loadConstant(i).aload(2).invokevirtual(record, components[i].getName(),
                                MethodTypeDesc.of(t.describeConstable().orElseThrow()));
                        box(b, t);
                        b.aastore();
                    }
                    b.areturn();
                })
                .withMethodBody("make", MethodTypeDesc.of(RECORD,
                        ConstantDescs.CD_Object.arrayType()), ClassFile.ACC_PUBLIC, b -> {
                    b.new_(record).dup();
                    for (int i = 0; i < components.length; i++) {
                        b.aload(1).loadConstant(i).aaload();
                        unbox(b, components[i].getType());
                    }
                    b.invokespecial(record, ConstantDescs.INIT_NAME, constructor).areturn();
                }));
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return (RecordShape) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalArgumentException(type.getName() + ": its accessors and canonical constructor are not"
                    + " accessible to the store", e);
        }
    }

    /**
     * Fails now, naming the type, where the spun class would fail at its first row with an IllegalAccessError: the
     * store must see the record, its accessors and its canonical constructor.
     */
    private static void requireAccessible(Class<?> type, RecordComponent[] components) {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            lookup.accessClass(type);
            lookup.unreflectConstructor(type.getDeclaredConstructor(Arrays.stream(components)
                    .map(RecordComponent::getType).toArray(Class<?>[]::new)));
            for (RecordComponent c : components) {
                lookup.unreflect(c.getAccessor());
            }
        } catch (IllegalAccessException | NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + ": its accessors and canonical constructor are not"
                    + " accessible to the store (" + e.getMessage() + ")", e);
        }
    }

    private static void box(CodeBuilder b, Class<?> type) {
        if (type.isPrimitive()) {
            ClassDesc box = MethodType.methodType(type).wrap().returnType().describeConstable().orElseThrow();
            b.invokestatic(box, "valueOf", MethodTypeDesc.of(box, type.describeConstable().orElseThrow()));
        }
    }

    private static void unbox(CodeBuilder b, Class<?> type) {
        if (type.isPrimitive()) {
            ClassDesc box = MethodType.methodType(type).wrap().returnType().describeConstable().orElseThrow();
            b.checkcast(box).invokevirtual(box, type.getName() + "Value",
                    MethodTypeDesc.of(type.describeConstable().orElseThrow()));
        } else {
            b.checkcast(type.describeConstable().orElseThrow());
        }
    }
}
